"""``jxbot systemd-unit``: print the systemd unit that runs the bot as a service (docs/bot.md).

``jxbot systemd-unit --user jxbot --dir /var/lib/jxbot --venv /opt/jxbot/venv | sudo tee /etc/systemd/system/jxbot.service``
"""

from __future__ import annotations

import argparse
import shlex
import sys

UNIT = """\
[Unit]
Description=jxbot (Jiaxing Mahjong on Discord)
After=network-online.target
Wants=network-online.target

[Service]
User={user}
Group={group}
WorkingDirectory={dir}
ExecStart={venv}/bin/jxbot run
# exit 1 (the network, DNS, a Discord outage) may pass: restart, 10 s apart, for as long as it takes
Restart=on-failure
RestartSec=10
# exit 2 is a refusal the admin must fix (the token, a setting, the database): restarting will not help
RestartPreventExitStatus=2
# SIGTERM: a graceful stop (tables paused and saved), at most ~12 s
TimeoutStopSec=30
NoNewPrivileges=true

[Install]
WantedBy=multi-user.target
"""


def unit(user: str = "jxbot", directory: str = "/var/lib/jxbot", venv: str = "/opt/jxbot/venv",
         group: str | None = None) -> str:
    return UNIT.format(user=user, group=group or user, dir=directory, venv=venv.rstrip("/") or "/")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "systemd-unit", help="print the systemd unit that runs the bot as a service",
        description="Print a systemd unit for `jxbot run`: restarted 10 s after a failure that may pass (exit 1), "
        "kept down after a refusal the admin must fix (exit 2). Install it with: jxbot systemd-unit … | sudo tee "
        "/etc/systemd/system/jxbot.service; sudo systemctl daemon-reload; sudo systemctl enable --now jxbot")
    p.add_argument("--user", default="jxbot", help="the system user it runs as (default jxbot)")
    p.add_argument("--group", default=None, help="its group (default: the user's name)")
    p.add_argument("--dir", default="/var/lib/jxbot",
                   help="the working directory, holding .env and the database (default /var/lib/jxbot)")
    p.add_argument("--venv", default=None,
                   help="the venv jxbot is installed in (default: this one, else /opt/jxbot/venv)")


def run(args: argparse.Namespace) -> int:
    venv = args.venv or (sys.prefix if sys.prefix != sys.base_prefix else "/opt/jxbot/venv")
    for name, value in (("--user", args.user), ("--dir", args.dir), ("--venv", venv)):
        if not value or shlex.quote(value) != value or "%" in value:  # systemd would split or expand it
            print(f"jxbot: {name} {value!r}: use a path or name without spaces, quotes or %", file=sys.stderr)
            return 2
    print(unit(args.user, args.dir, venv, args.group), end="")
    return 0
