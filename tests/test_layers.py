"""The package's import structure (tools/import_graph.py reads it): no import loop, no import inside a
function but the CLI's (it imports the server and the engine only for the commands that need them),
the rules core importing nothing above it, each family only the core, and the layers in order; and
in the tests, no module importing a test module (shared steps live in helper modules and fixtures)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
import_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)

MODULES, TOP, LOCAL = import_graph.collect(ROOT / "superchess")
EVERY = {m: TOP[m] | {b for a, b, _ in LOCAL if a == m} for m in MODULES}


def test_no_import_loops():
    assert [c for c in import_graph.strongly_connected(MODULES, EVERY) if len(c) > 1] == []


def test_function_local_imports_only_where_the_cli_defers_a_layer():
    assert {(a, b) for a, b, _ in LOCAL} == {("superchess.cli", "superchess.server.app"),
                                              ("superchess.cli", "superchess.engine.uci")}


def imports(prefix: str) -> set[str]:
    """What the modules of a package import (the top package `superchess` aside: it holds the native
    extension, which the rules core loads)."""
    return {b for a in MODULES if a == prefix or a.startswith(prefix + ".") for b in EVERY[a]} - {"superchess"}


def test_the_rules_core_imports_nothing_above_it_and_families_only_the_core():
    core = "superchess.rules.core"
    assert {m for m in imports(core) if not m.startswith(core)} == set()
    for family in ("diagram", "intergrid", "tiling"):
        package = f"superchess.rules.{family}"
        assert {m for m in imports(package) if not m.startswith((package, core))} == set(), family


def test_layers_import_only_the_layers_below():
    for layer, below in (("superchess.rules", ()), ("superchess.engine", ("superchess.rules",)),
                         ("superchess.server", ("superchess.rules", "superchess.engine"))):
        outside = {m for m in imports(layer) if not m.startswith((layer,) + below)}
        assert outside == set(), layer


def test_no_module_of_the_tests_imports_a_test_module():
    modules, top, local = import_graph.collect(ROOT / "tests")
    edges = {(a, b) for a in modules for b in top[a]} | {(a, b) for a, b, _ in local}
    assert sorted((a, b) for a, b in edges if b.rsplit(".", 1)[-1].startswith("test_")) == []
