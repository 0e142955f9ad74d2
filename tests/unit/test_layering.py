"""The package's layers, read from its imports: who may import whom.

The **core** is what turns bytes into a checked abstraction and what a person's values
are checked by, and what the portfolio derives from abstractions: it must run (and be
tested) on bytes alone, in-process (``abstract``, ``eval``) as in a worker. It is

- the stages: ``parsing/`` (bytes → Document), ``extraction/`` (Document → raw fields),
  ``normalization``, ``confidence`` (and ``calibration``, which refits it), ``gate``, and
  ``abstract`` (the stages in order);
- what they speak: ``model``, ``fields``, ``errors``, ``outcomes``, ``settings``,
  ``hashes``, ``redaction``, ``translate`` (it names library errors by string, never
  imports them);
- the checks on a person's values: ``corrections``, ``decisions``, ``schedule_checks``,
  ``comparison``;
- the measurement and the derived views: ``evaluation/``, ``viewer/`` and ``portfolio/``
  (the leases with their current terms are read from the store by store/leases.py; the
  workbook only names their type).

The rules:

1. The core imports no framework (``FRAMEWORKS``), directly or through any module of
   ours, and imports only core modules of ours.
2. ``store/`` holds every table and query: SQLAlchemy and Alembic are imported only there
   (``SQL_ELSEWHERE`` lists the exceptions and why), and ``store/`` reaches nothing of
   ``extraction/`` or ``parsing/``, neither by its own imports nor by what importing those
   loads, and imports no framework but its own.
3. ``web/`` reaches the database through one interface, the ``lease_parser.store``
   package's public names: it imports neither SQLAlchemy nor a module inside
   ``store/``, nor a module of ours that runs SQL itself.
4. Nothing below the CLI imports the CLI (it is the top layer; the benchmark's worker once
   closed a cycle cli → bench → cli).
5. No import circles, lazy imports in functions included (``CIRCLES`` would list any left,
   with why: none is).
6. Celery-aware code is under ``pipeline/``: Celery, kombu and billiard are imported
   nowhere else but by the tools ``CELERY_ELSEWHERE`` lists, each with its reason.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lease_parser"

FRAMEWORKS = frozenset(
    {
        "celery",
        "kombu",
        "billiard",
        "redis",
        "fastapi",
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "boto3",
        "botocore",
        "prometheus_client",
    }
)
SQL = frozenset({"sqlalchemy", "alembic"})

CORE = (
    "lease_parser.parsing",
    "lease_parser.extraction",
    "lease_parser.scoring.normalization",
    "lease_parser.scoring.confidence",
    "lease_parser.scoring.calibration",
    "lease_parser.scoring.gate",
    "lease_parser.abstract",
    "lease_parser.model",
    "lease_parser.fields",
    "lease_parser.errors",
    "lease_parser.outcomes",
    "lease_parser.settings",
    "lease_parser.hashes",
    "lease_parser.redaction",
    "lease_parser.translate",
    "lease_parser.corrections",
    "lease_parser.decisions",
    "lease_parser.schedule_checks",
    "lease_parser.comparison",
    "lease_parser.evaluation",
    "lease_parser.viewer",
    "lease_parser.portfolio",
)

#: Modules outside store/ that import SQLAlchemy, each with the reason it must.
SQL_ELSEWHERE = {
    # Catches SQLAlchemyError around its reads: an exporter started before any schema
    # exists reports lease_store_up 0 instead of failing the scrape.
    "lease_parser.metrics": "catches the store's errors at scrape time",
}


CELERY = frozenset({"celery", "kombu", "billiard"})
#: Modules outside pipeline/ that import Celery, kombu or billiard, and why.
CELERY_ELSEWHERE = {
    "lease_parser.bench": "the benchmark drives real workers and times them by Celery signals",
    "lease_parser.local": "it starts local workers and waits for their control ping",
    "lease_parser.cli.ops": "healthcheck --worker pings one worker through a bare app",
}

#: Modules that import each other, each circle with the reason it stays.
# None left: errors.py names model.FieldProblem for type checking only.
CIRCLES: dict[frozenset[str], str] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return isinstance(test, ast.Name | ast.Attribute) and ast.unparse(test).endswith(
        "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST, lazy: bool) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (types only: never run), and
    unless ``lazy``, but those inside functions (run only when the function is called)."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        children = list(ast.iter_child_nodes(node))
        if _type_checking(node):
            assert isinstance(node, ast.If)
            children = node.orelse
        elif not lazy and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            children = []
        todo += children
    return out


@cache
def imports(module: str, lazy: bool = True) -> frozenset[str]:
    """Every name ``module`` imports when it runs (with ``lazy``, the imports inside its
    functions too; one for type checking only never): ``from a.b import c`` gives ``a.b``,
    and ``a.b.c`` when that is a module of ours."""
    names: set[str] = set()
    for node in _runtime_nodes(ast.parse(modules()[module].read_text()), lazy):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{a.name}" for a in node.names} & modules().keys()
            # ``from a.b import c`` of a module c imports c; other names come from a.b.
            whole = len(submodules) == len(node.names)
            names |= submodules if whole else submodules | {node.module}
    return frozenset(names)


def ours(module: str, lazy: bool = True) -> frozenset[str]:
    """The modules of ours that ``module`` imports. Not the root package: ``from lease_parser
    import model`` runs lease_parser/__init__.py, whose imports are inside its API functions
    (``submit``, ``status``) and run only when those are called."""
    found = imports(module, lazy)
    return frozenset(m for m in found if m in modules() and m != "lease_parser")


def top_levels(module: str) -> frozenset[str]:
    return frozenset(m.split(".")[0] for m in imports(module))


def reachable(start: str) -> set[str]:
    """``start``, what it imports, and what importing those loads in turn: every import of
    ``start`` itself, then the module-level imports of each module reached. (A lazy import
    further down runs only when its function is called: ``Settings.confidence()`` loads the
    confidence model, which a migration reading ``Settings.store_url`` never calls.)"""
    seen = {start} | ours(start)
    todo = list(seen - {start})
    while todo:
        for m in ours(todo.pop(), lazy=False) - seen:
            seen.add(m)
            todo.append(m)
    return seen


def under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def members(*prefixes: str) -> list[str]:
    return sorted(m for m in modules() if under(m, *prefixes))


def test_the_core_imports_no_framework_and_nothing_but_the_core() -> None:
    core = members(*CORE)
    assert "lease_parser.extraction.base" in core  # the list names what exists
    frameworks = {m: sorted(top_levels(m) & FRAMEWORKS) for m in core}
    assert {m: f for m, f in frameworks.items() if f} == {}
    beyond = {m: sorted(i for i in ours(m) if not under(i, *CORE)) for m in core}
    assert {m: b for m, b in beyond.items() if b} == {}


def test_the_core_loads_no_framework_when_imported() -> None:
    """The same rule at run time: nothing a third-party library imports for us either."""
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + f"bad = sorted(m for m in {sorted(FRAMEWORKS)!r} if m in sys.modules)\n"
        + "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_sql_lives_in_the_store() -> None:
    outside = {m for m in modules() if top_levels(m) & SQL and not under(m, "lease_parser.store")}
    assert outside == set(SQL_ELSEWHERE)


def test_the_store_reaches_no_extraction_or_parsing_and_no_other_framework() -> None:
    store = members("lease_parser.store")
    assert "lease_parser.store.database" in store
    reached = {m: reachable(m) for m in store}
    stages = {
        m: sorted(r for r in found if under(r, "lease_parser.extraction", "lease_parser.parsing"))
        for m, found in reached.items()
    }
    assert {m: s for m, s in stages.items() if s} == {}
    others = {m: sorted(top_levels(m) & (FRAMEWORKS - SQL)) for m in store}
    assert {m: f for m, f in others.items() if f} == {}


def test_the_web_reaches_the_database_only_through_the_store_package() -> None:
    web = members("lease_parser.web")
    assert "lease_parser.web.api" in web
    sql = {m: sorted(top_levels(m) & SQL) for m in web}
    assert {m: s for m, s in sql.items() if s} == {}
    inside = {m: sorted(i for i in ours(m) if under(i, "lease_parser.store")) for m in web}
    assert {m: sorted(set(i) - {"lease_parser.store"}) for m, i in inside.items() if i} == {
        m: [] for m, i in inside.items() if i
    }
    assert any(inside.values())  # the rule is about something that exists
    runs_sql = set(SQL_ELSEWHERE)
    via = {m: sorted(ours(m) & runs_sql) for m in web}
    assert {m: v for m, v in via.items() if v} == {}


def test_nothing_below_the_cli_imports_the_cli() -> None:
    offenders = [
        m
        for m in modules()
        if not under(m, "lease_parser.cli", "lease_parser.__main__")
        and any(under(i, "lease_parser.cli") for i in imports(m))
    ]
    assert offenders == []


def circles() -> set[frozenset[str]]:
    """The strongly connected groups of two or more modules (Tarjan), lazy imports included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in ours(m):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = {stack.pop()}
            while m not in group:
                group.add(stack.pop())
            if len(group) > 1:
                found.add(frozenset(group))

    for m in sorted(modules()):
        if m not in index:
            visit(m)
    return found


def test_no_import_circles_but_the_listed_one() -> None:
    assert circles() == set(CIRCLES)


def test_celery_is_imported_only_under_the_pipeline_and_by_the_listed_tools() -> None:
    outside = {
        m
        for m in modules()
        if top_levels(m) & CELERY and not under(m, "lease_parser.pipeline", *CELERY_ELSEWHERE)
    }
    assert outside == set()
    for allowed in CELERY_ELSEWHERE:  # each exception is still needed
        assert any(top_levels(m) & CELERY for m in members(allowed)), allowed
