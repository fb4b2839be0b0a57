"""Issue 24 finding 11: with only the ``test`` extra installed (``pip install -e '.[test]'``: what a packager
or a CI job that does not lint installs) every test can import what it imports. Each third-party module any
test file imports (at the top or inside a test) must come from a distribution that the package's own
dependencies or its ``test`` extra name, directly or through their requirements; never from ``dev`` alone."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _name(req: str) -> str:
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    assert m, req
    return re.sub(r"[-_.]+", "-", m[1]).lower()


def _declared() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(project["dependencies"]) + list(project["optional-dependencies"]["test"])
    return {_name(r) for r in reqs} - {"jxbot"}


def _closure(names: set[str]) -> set[str]:
    """The distributions installed with ``names``: their requirements (not those of their extras), recursively."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        try:
            requires = metadata.requires(n) or []
        except metadata.PackageNotFoundError:
            continue
        for r in requires:
            if "extra ==" in r.replace('"', "'").replace("extra==", "extra =="):
                continue
            todo.append(_name(r))
    return seen


def imports_of_the_tests() -> dict[str, set[str]]:
    """Top-level module -> the test files importing it (third-party only: no stdlib, nothing of the repo)."""
    local = {p.name for p in REPO.iterdir() if p.is_dir()} | {p.stem for p in REPO.glob("*.py")}
    found: dict[str, set[str]] = {}
    for f in sorted((REPO / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in local or top == "__future__":
                    continue
                found.setdefault(top, set()).add(str(f.relative_to(REPO)))
    return found


def test_the_test_extra_holds_everything_the_tests_import():
    allowed = _closure(_declared())
    dists = metadata.packages_distributions()
    missing = []
    for module, files in sorted(imports_of_the_tests().items()):
        providers = {_name(d) for d in dists.get(module, [])}
        if not providers & allowed:
            missing.append(f"{module} ({', '.join(sorted(providers)) or 'not installed'}) in {', '.join(sorted(files))}")
    assert not missing, "imported by tests but not in the test extra or the dependencies: " + "; ".join(missing)
