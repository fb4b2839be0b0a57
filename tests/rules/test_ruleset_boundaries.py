"""Issue 16's boundaries: no ruleset-name comparison in the core, and no import from the core into a
ruleset's package (the registry, ``jxbot/rulesets/__init__.py``, loads them by name, lazily)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE_DIRS = ("jxbot", "render", "cogs", "scripts")
RULESETS = ROOT / "jxbot" / "rulesets"
# the brief's grep: a family comparison or a comparison with a built-in ruleset's name
NAME_COMPARISON = re.compile(r'family *[!=]=|== *"(caishen|jiaxing)"')


def core_files() -> list[Path]:
    out = []
    for d in CORE_DIRS:
        for p in sorted((ROOT / d).rglob("*.py")):
            if RULESETS in p.parents and p.parent != RULESETS:
                continue  # a ruleset's own package
            out.append(p)
    return out


def ruleset_packages() -> list[str]:
    return sorted(p.name for p in RULESETS.iterdir() if (p / "__init__.py").exists())


def test_no_ruleset_name_is_compared_outside_the_rulesets_packages():
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in core_files()
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if NAME_COMPARISON.search(line)]
    assert hits == []


def _imports(path: Path) -> set[str]:
    """Every module an import statement in ``path`` names (top level or inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)  # ``from jxbot.rulesets import caishen``
    return out


def test_the_core_never_imports_a_rulesets_package():
    names = ruleset_packages()
    assert {"jiaxing", "caishen"} <= set(names)
    bad = {}
    for p in core_files():
        hit = sorted(m for m in _imports(p) for n in names if m == f"jxbot.rulesets.{n}" or m.startswith(f"jxbot.rulesets.{n}."))
        if hit:
            bad[str(p.relative_to(ROOT))] = hit
    assert bad == {}


def test_no_import_circle_between_the_rulesets_packages_and_the_core():
    # a ruleset package imports the core (and may build on another ruleset, e.g. caishen on jiaxing);
    # the ruleset graph itself has no cycle, and no core module is reached back from a ruleset's import
    names = ruleset_packages()
    deps: dict[str, set[str]] = {n: set() for n in names}
    for n in names:
        for p in (RULESETS / n).rglob("*.py"):
            for m in _imports(p):
                for other in names:
                    if other != n and (m == f"jxbot.rulesets.{other}" or m.startswith(f"jxbot.rulesets.{other}.")):
                        deps[n].add(other)
    seen: set[str] = set()

    def visit(n: str, path: tuple[str, ...]) -> None:
        assert n not in path, f"import circle between rulesets: {' -> '.join((*path, n))}"
        if n in seen:
            return
        for d in deps[n]:
            visit(d, (*path, n))
        seen.add(n)

    for n in names:
        visit(n, ())


def test_importing_the_core_loads_no_ruleset_until_one_is_asked_for():
    import subprocess
    import sys

    code = ("import sys, jxbot.rules, jxbot.game, jxbot.table.runner, render; "
            "print(sorted(m for m in sys.modules if m.startswith('jxbot.rulesets.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "['jxbot.rulesets.base']"
