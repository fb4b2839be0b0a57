"""A minimal real discord.py bot, used to prove the double: run it as a subprocess pointed at the double.

    DISCORD_TOKEN=… DISCORD_API_BASE=http://127.0.0.1:P/api/v10 [DEV_GUILD_ID=…] python -m tests.e2e.minibot

Commands: /ping (a PNG attachment and buttons: "Press" updates the message, "Redraw" defers and sends a
new image through @original, "Edit" defers and edits by REST), /dm text (DMs the caller the same panel),
/announce text (defers, posts in the channel, follows up), /burst n (posts, then edits n times as fast as
the rate limits allow), /ask (opens a modal). It reaches the double only through ``jxbot.discord_endpoints.configure``.
"""

from __future__ import annotations

import io
import logging
import os
import re
import struct
import sys
import zlib

import discord
from discord import app_commands

from jxbot.discord_endpoints import configure

log = logging.getLogger("minibot")


def tiny_png(width: int = 4, height: int = 3) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Panel(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Press", custom_id="mini:press", style=discord.ButtonStyle.primary)
    async def press(self, interaction: discord.Interaction, button: discord.ui.Button[Panel]) -> None:
        assert interaction.message is not None
        m = re.search(r"pressed (\d+)", interaction.message.content)
        n = int(m.group(1)) + 1 if m else 1
        await interaction.response.edit_message(content=f"pong, pressed {n}")

    @discord.ui.button(label="Redraw", custom_id="mini:redraw")
    async def redraw(self, interaction: discord.Interaction, button: discord.ui.Button[Panel]) -> None:
        """Deferred update, then a new image through the interaction webhook (@original)."""
        await interaction.response.defer()
        assert interaction.message is not None
        size = (interaction.message.attachments[0].width or 1) + 1 if interaction.message.attachments else 1
        await interaction.edit_original_response(attachments=[discord.File(io.BytesIO(tiny_png(size, size)), "hand.png")])

    @discord.ui.button(label="Edit", custom_id="mini:edit")
    async def edit(self, interaction: discord.Interaction, button: discord.ui.Button[Panel]) -> None:
        """Deferred update, then a plain REST edit of the message (PATCH /channels/…/messages/…)."""
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content="edited by REST")


class AskModal(discord.ui.Modal, title="Ask"):
    answer: discord.ui.TextInput[AskModal] = discord.ui.TextInput(label="Answer", custom_id="mini:answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


class ExtrasTranslator(app_commands.Translator):
    """Localized names come from ``locale_str(..., zh_CN="…")`` extras."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return string.extras.get(locale.value.replace("-", "_"))


class MiniBot(discord.Client):
    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents)
        self.tree = app_commands.CommandTree(self)
        self._register()

    def _register(self) -> None:
        @self.tree.command(name="ping", description="Reply with an image and a button")
        @app_commands.describe(text="what to say")
        @app_commands.rename(text=app_commands.locale_str("text", zh_CN="内容"))
        async def ping(interaction: discord.Interaction, text: str = "pong") -> None:
            await interaction.response.send_message(
                text, file=discord.File(io.BytesIO(tiny_png()), "pong.png"), view=Panel())

        @self.tree.command(name="dm", description="Send yourself a DM")
        async def dm(interaction: discord.Interaction, text: str) -> None:
            try:
                await interaction.user.send(text, file=discord.File(io.BytesIO(tiny_png(2, 2)), "hand.png"), view=Panel())
            except discord.Forbidden as exc:
                await interaction.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
                return
            await interaction.response.send_message("sent", ephemeral=True)

        @self.tree.command(name="announce", description="Post in this channel")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                assert isinstance(interaction.channel, discord.abc.Messageable)
                await interaction.channel.send(text)
            except discord.Forbidden as exc:
                await interaction.followup.send(f"missing permissions ({exc.code})", ephemeral=True)
                return
            await interaction.followup.send("announced", ephemeral=True)

        @self.tree.command(name="burst", description="Post a message and edit it n times, as fast as allowed")
        async def burst(interaction: discord.Interaction, n: app_commands.Range[int, 1, 50]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            msg = await interaction.channel.send("0")
            for i in range(1, n + 1):
                msg = await msg.edit(content=str(i))
            await interaction.followup.send(f"burst {n} done", ephemeral=True)

        @self.tree.command(name="ask", description="Open a modal")
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AskModal())

    async def setup_hook(self) -> None:
        self.add_view(Panel())
        await self.tree.set_translator(ExtrasTranslator())
        gid = os.environ.get("DEV_GUILD_ID")
        if gid:
            guild = discord.Object(int(gid))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        print(f"minibot ready as {self.user}", flush=True)

    async def on_resumed(self) -> None:
        print("minibot resumed", flush=True)


def main() -> int:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    configure(os.environ.get("DISCORD_API_BASE"))
    MiniBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
