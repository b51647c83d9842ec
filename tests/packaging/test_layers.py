"""Imports point down the layers only, and no module imports itself back through others.

engine ← search ← jobs ← service, tools ← learn ← web ← cli: each layer may import the ones
before it (and the generated `proto` where allowed), never one after it. Every import counts,
including those inside functions and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["engine", "search", "jobs", "service", "tools", "learn", "web", "cli", "proto"]
GRPC_MODULES = ("grpc", "grpc_status", "grpc_health", "grpc_reflection", "google.rpc")

ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "search": {"engine"},
    "jobs": {"engine", "search"},
    "service": {"engine", "search", "jobs", "proto"},
    "tools": {"engine", "search", "jobs", "service", "proto"},
    "learn": {"engine", "search", "tools"},
    "web": {"engine", "service", "proto"},
    "cli": {"engine", "search", "jobs", "service", "tools", "learn", "web", "proto"},
    "proto": set(),
}
"""The other boardbot layers each layer may import."""

NO_GRPC = {"engine", "search", "jobs", "learn"}
"""Layers that must run without gRPC (workers, the library, local commands)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["boardbot", *parts])


def _modules() -> dict[str, Path]:
    found = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            if layer == "proto" and path.name.endswith(("_pb2.py", "_pb2_grpc.py")):
                continue  # generated code
            found[_module_name(path)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) of every import in the file, relative ones resolved."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                # `from package import module` imports that module.
                child = f"{module}.{alias.name}"
                found.append((node.lineno, child if child in MODULES else module))
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "boardbot" or len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return parts[1]


def test_each_layer_imports_only_the_layers_below_it() -> None:
    offenders = []
    for module, path in MODULES.items():
        layer = _layer(module)
        assert layer is not None
        for line, imported in _imports(path):
            target = _layer(imported)
            if target is None or target == layer:
                continue
            if target not in ALLOWED[layer]:
                offenders.append(f"{path.relative_to(ROOT)}:{line} ({layer}) imports {imported}")
    assert offenders == []


def test_engine_search_and_jobs_never_import_grpc() -> None:
    offenders = []
    for module, path in MODULES.items():
        if _layer(module) not in NO_GRPC:
            continue
        for line, imported in _imports(path):
            if imported.startswith(GRPC_MODULES):
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert offenders == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    graph = {
        module: {imported for _, imported in _imports(path) if imported in MODULES} - {module}
        for module, path in MODULES.items()
    }
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
