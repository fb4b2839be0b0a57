"""Screens for the docs, captured from the double: the real bot plays a seeded table against scripted
players, and the messages it sent (text, buttons, the image it attached) are drawn roughly as a Discord
client shows them.

    python3 -m tests.e2e.screens docs/img      # lobby.png, dm-panel.png, table-message.png, result-message.png,
                                               # replay-viewer.png, watch-view.png
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

from tests.e2e.conftest import REPO, BotProcess
from tests.e2e.double import DiscordDouble, Message
from tests.e2e.players import AutoPlayer, Player, Style
from tests.e2e.scenario import World, fast_env, open_table, result_messages, wait_match_over

BG, TEXT, DIM = (49, 51, 56), (219, 222, 225), (148, 155, 164)
STYLES = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
WIDTH = 960


def _font(size: int):  # noqa: ANN202
    from render import fonts

    return fonts.ui(size)


def _clean(text: str, names: dict[int, str]) -> str:
    from render import fonts

    text = re.sub(r"<@(\d+)>", lambda m: "@" + names.get(int(m.group(1)), "someone"), text)
    text = re.sub(r"<t:(\d+):R>", "in 20 s", text)
    text = text.replace("**", "").replace("`", "")
    # the first/last buttons' glyphs, which the UI font lacks, as a client's emoji font draws them
    text = text.replace("⏮", "|◀").replace("⏭", "▶|")
    # emoji and other characters the UI font lacks are left out (a client draws them; "?" would mislead)
    text = "".join(c for c in text if c == "\n" or not fonts.missing_chars(c))
    return "\n".join(fonts.safe_text(line) for line in text.splitlines())


def _wrap(line: str, font, width: int) -> list[str]:  # noqa: ANN001
    """A line broken to ``width`` pixels, as a client wraps it."""
    out, cur = [], ""
    for c in line:
        if cur and font.getlength(cur + c) > width:
            out.append(cur)
            cur = c.lstrip()
        else:
            cur += c
    return [*out, cur]


def draw_message(m: Message, names: dict[int, str], author: str = "jxbot") -> Image.Image:
    """A message as a client shows it: author, text, the attached image, the buttons."""
    f_body, f_author, f_btn, f_sub = _font(22), _font(24), _font(20), _font(17)
    lines: list[tuple[str, bool]] = []  # (text, subtext: Discord's "-# " small grey line)
    for raw in _clean(m.content, names).splitlines():
        sub = raw.startswith("-# ")
        text = raw[3:].strip() if sub else raw
        lines.extend((part, sub) for part in _wrap(text, f_sub if sub else f_body, WIDTH - 100))
    # every attached picture, one under the other (the replay viewer's table and the seat's hand)
    shots = []
    for a in m.attachments:
        try:
            shot = Image.open(io.BytesIO(a.data)).convert("RGB")
        except Exception:
            continue
        if shot.width > WIDTH - 90:
            shot = shot.resize((WIDTH - 90, round(shot.height * (WIDTH - 90) / shot.width)))
        shots.append(shot)
    img = None
    if shots:
        img = Image.new("RGB", (max(x.width for x in shots), sum(x.height for x in shots) + 8 * (len(shots) - 1)), BG)
        top = 0
        for shot in shots:
            img.paste(shot, (0, top))
            top += shot.height + 8
    rows: list[list[dict]] = [[c for c in row.get("components", []) if c.get("type") == 2]
                              for row in m.components if row.get("type") == 1]
    h = 24 + 36 + 32 * len(lines) + (img.height + 16 if img else 0) + 52 * len(rows) + 16
    canvas = Image.new("RGB", (WIDTH, h), BG)
    d = ImageDraw.Draw(canvas)
    d.ellipse((16, 20, 64, 68), fill=(88, 101, 242))
    d.text((40, 44), "JX", font=_font(18), fill=(255, 255, 255), anchor="mm")
    d.text((80, 18), author, font=f_author, fill=(255, 255, 255))
    d.text((80 + d.textlength(author, font=f_author) + 10, 24), "BOT  今天", font=_font(16), fill=DIM)
    y = 56
    for line, sub in lines:
        d.text((80, y + (4 if sub else 0)), line, font=f_sub if sub else f_body, fill=DIM if sub else TEXT)
        y += 32
    if img is not None:
        canvas.paste(img, (80, y + 8))
        y += img.height + 16
    for row in rows:
        x = 80
        for b in row:
            label = _clean(b.get("label") or "", names)
            w = int(d.textlength(label, font=f_btn)) + 32
            col = STYLES.get(b.get("style", 2), STYLES[2])
            if b.get("disabled"):
                col = tuple(int(c * 0.6) for c in col)
            d.rounded_rectangle((x, y + 6, x + w, y + 44), radius=6, fill=col)
            d.text((x + w / 2, y + 25), label, font=f_btn, fill=(255, 255, 255), anchor="mm")
            x += w + 8
        y += 52
    return canvas


async def capture(out_dir: Path) -> list[Path]:
    tmp = Path(tempfile.mkdtemp(prefix="jxbot-screens-"))
    double = DiscordDouble()
    await double.start()
    guild = double.add_guild("jxbot", locale="zh-CN")
    ch = double.add_text_channel(guild, "mahjong")
    players = [Player.join(double, n, guild, ch) for n in ("alice", "bob")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), **double.env(), "DEV_GUILD_ID": str(guild.id),
           **fast_env(tmp / "db.sqlite3", JXBOT_TEST_SEED="4", JXBOT_COMPUTER_DELAY="0.05")}
    bot = BotProcess(["-m", "jxbot.cli", "run"], env, tmp / "bot.log", tmp)
    await bot.start()
    carol = Player.join(double, "carol", guild, ch)  # not seated: she watches (观战)
    names = {p.id: p.name for p in [*players, carol]}
    written: list[Path] = []
    try:
        await double.wait_commands(timeout=60)
        await bot.wait_log("ready: every table resumed", timeout=30)  # the readiness gate open
        await asyncio.sleep(1.0)
        w = World(double, guild, ch, players, bot, tmp / "db.sqlite3", None)  # type: ignore[arg-type]
        lobby = await open_table(w, start=False)
        draw_message(lobby, names).save(out_dir / "lobby.png")
        written.append(out_dir / "lobby.png")
        a = await players[0].click(lobby, label="开始")
        await a.settled()
        alice, bob = (AutoPlayer(p, Style(claim="greedy")).start() for p in players)
        await double.wait_for(lambda: len(alice.seen) >= 6, 120, "a few turns")
        alice.paused = True  # alice thinks: her turn stays on screen

        def her_turn() -> Message | None:
            p = alice.panel()
            return p.message if p is not None and any(v == "discard" for v, _, _ in p.actions) else None
        await asyncio.sleep(2.0)
        panel = await double.wait_for(her_turn, 60, "alice's turn")
        draw_message(panel, names).save(out_dir / "dm-panel.png")
        written.append(out_dir / "dm-panel.png")
        table = next(m for m in ch.messages if m.image() and any(b.get("label") == "看我的牌" for b in m.buttons()))
        draw_message(table, names).save(out_dir / "table-message.png")
        written.append(out_dir / "table-message.png")
        await carol.click(table, label="观战")  # her private view, two moves behind, with the table picture
        view = await double.wait_for(lambda: next((m for m in carol.ephemerals() if "👀" in m.content and m.image()),
                                                  None), 60, "carol's watch view")
        draw_message(view, names).save(out_dir / "watch-view.png")
        written.append(out_dir / "watch-view.png")
        alice.paused = False
        double.notify()
        await wait_match_over(w, timeout=240)
        await alice.stop()
        await bob.stop()
        res = result_messages(w)[-1]
        draw_message(res, names).save(out_dir / "result-message.png")
        written.append(out_dir / "result-message.png")
        a = await players[0].click(res, label="回放")  # the replay viewer, a few moves in
        await a.settled()
        for _ in range(6):
            viewer = next(m for m in reversed(players[0].ephemerals()) if "**回放**" in m.content)
            a = await players[0].click(viewer, custom_id=next(b["custom_id"] for b in viewer.buttons()
                                                              if b["custom_id"].startswith("mj:rp.2:")))
            await a.settled()
        draw_message(viewer, names).save(out_dir / "replay-viewer.png")
        written.append(out_dir / "replay-viewer.png")
    finally:
        await bot.kill()
        await double.stop()
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(capture(out)):
        print(path)
