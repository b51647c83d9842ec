"""Breaking changes of the wire contract against the last release's descriptor: a written
equivalent of `buf breaking` at its WIRE_JSON level (docs/compatibility.md).

The proto files under `boardbot/proto/boardbot/` are compiled afresh to a FileDescriptorSet and
compared with the release's, committed as `proto/descriptors/boardbot-X.Y.Z.binpb`:

    python -m boardbot.tools.proto_breaking                        # against the newest release
    python -m boardbot.tools.proto_breaking --against FILE.binpb
    python -m boardbot.tools.proto_breaking --write-release 0.2.0  # at a release

Breaking, each reported with its path: a file removed or its package changed; a service,
method, message or enum removed; a method's request or response type or streaming changed; a
field removed without its number and name reserved; a field's type, label (repeated or not),
presence (`optional`), name or JSON name changed, or the field moved into, out of or between
oneofs; an enum value removed without its number and name reserved, renamed or renumbered;
reserved numbers or names no longer reserved. Anything added is fine. Exit 0 with "no breaking
change against ...", 1 with the list, 2 when the check cannot run.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2 as d
from google.protobuf.message import DecodeError

from boardbot.engine.errors import BoardbotError

ROOT = Path(__file__).resolve().parents[1]
"""The source tree (this file is tools/proto_breaking.py in it)."""

PROTO_TREE = Path("boardbot/proto/boardbot")
"""Where the proto files are, relative to the root (through the boardbot/proto link, so their
names are those the generated code imports)."""

DESCRIPTORS = Path("proto/descriptors")
"""The released descriptors, relative to the root: boardbot-X.Y.Z.binpb."""

_RELEASE_FILE = re.compile(r"boardbot-([0-9]+)\.([0-9]+)\.([0-9]+)\.binpb")
_VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")

_TYPE_NAMES = {
    number: name.removeprefix("TYPE_").lower()
    for name, number in d.FieldDescriptorProto.Type.items()
}


class ProtoBreakingError(BoardbotError, RuntimeError):
    """The check cannot run: a proto that does not compile, or a descriptor that cannot be read."""


def proto_files(root: Path) -> list[str]:
    """The proto files under PROTO_TREE, as paths relative to `root`."""
    return sorted(str(path.relative_to(root)) for path in (root / PROTO_TREE).rglob("*.proto"))


def compile_protos(root: Path, files: Iterable[str]) -> d.FileDescriptorSet:
    """The FileDescriptorSet of `files` (relative to `root`), compiled by grpc_tools' protoc."""
    names = list(files)
    if not names:
        raise ProtoBreakingError(f"no proto file under {root / PROTO_TREE}")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "current.binpb"
        protoc = [sys.executable, "-m", "grpc_tools.protoc", f"-I{root}"]
        result = subprocess.run(
            [*protoc, f"--descriptor_set_out={out}", *names],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        if result.returncode != 0:
            raise ProtoBreakingError(f"protoc failed: {result.stderr.strip()[:2000]}")
        return read_descriptor_set(out)


def read_descriptor_set(path: Path) -> d.FileDescriptorSet:
    """A FileDescriptorSet read from its file."""
    found = d.FileDescriptorSet()
    try:
        found.ParseFromString(path.read_bytes())
    except (OSError, DecodeError) as error:
        raise ProtoBreakingError(f"cannot read the descriptor {path}: {error}") from None
    return found


def newest_release(descriptors: Path) -> Path:
    """The descriptor of the highest released version in `descriptors`."""
    releases = [
        (tuple(int(part) for part in found.groups()), path)
        for path in descriptors.glob("boardbot-*.binpb")
        if (found := _RELEASE_FILE.fullmatch(path.name))
    ]
    if not releases:
        raise ProtoBreakingError(f"no released descriptor (boardbot-X.Y.Z.binpb) in {descriptors}")
    return max(releases)[1]


# ----------------------------------------------------------------------------- comparison
def breaking_changes(old: d.FileDescriptorSet, new: d.FileDescriptorSet) -> list[str]:
    """Every breaking change from `old` to `new`, one line each, starting with its path."""
    found: list[str] = []
    found += _file_changes(old, new)
    old_services, new_services = _services(old), _services(new)
    for name, service in old_services.items():
        if name not in new_services:
            found.append(f"service {name}: removed")
        else:
            found += _method_changes(name, service, new_services[name])
    old_messages, new_messages = _messages(old), _messages(new)
    for name, message in old_messages.items():
        if name in new_messages:
            found += _message_changes(name, message, new_messages[name])
        elif not message.options.map_entry:  # a map's entry goes with its field
            found.append(f"message {name}: removed")
    old_enums, new_enums = _enums(old), _enums(new)
    for name, enum in old_enums.items():
        if name in new_enums:
            found += _enum_changes(name, enum, new_enums[name])
        else:
            found.append(f"enum {name}: removed")
    return found


def _file_changes(old: d.FileDescriptorSet, new: d.FileDescriptorSet) -> list[str]:
    found = []
    new_files = {file.name: file for file in new.file}
    for file in old.file:
        now = new_files.get(file.name)
        if now is None:
            found.append(f"file {file.name}: removed (generated code is named after it)")
            continue
        if now.package != file.package:
            found.append(
                f"file {file.name}: package changed from {file.package} to {now.package}"
            )
        if (now.syntax or "proto2") != (file.syntax or "proto2") or now.edition != file.edition:
            found.append(f"file {file.name}: syntax changed from {file.syntax} to {now.syntax}")
    packages = {file.package for file in new.file}
    for package in sorted({file.package for file in old.file} - packages):
        found.append(f"package {package}: removed")
    return found


def _method_changes(
    service: str, old: d.ServiceDescriptorProto, new: d.ServiceDescriptorProto
) -> list[str]:
    found = []
    methods = {method.name: method for method in new.method}
    for method in old.method:
        path = f"method {service}.{method.name}"
        now = methods.get(method.name)
        if now is None:
            found.append(f"{path}: removed")
            continue
        if now.input_type != method.input_type:
            found.append(
                f"{path}: request type changed from {method.input_type} to {now.input_type}"
            )
        if now.output_type != method.output_type:
            found.append(
                f"{path}: response type changed from {method.output_type} to {now.output_type}"
            )
        for side in ("client", "server"):
            was, is_now = getattr(method, f"{side}_streaming"), getattr(now, f"{side}_streaming")
            if was != is_now:
                change = "made streaming" if is_now else "no longer streaming"
                found.append(f"{path}: {change} on the {side} side")
    return found


def _message_changes(name: str, old: d.DescriptorProto, new: d.DescriptorProto) -> list[str]:
    found = []
    fields = {field.number: field for field in new.field}
    reserved = _Reserved(new.reserved_range, new.reserved_name, inclusive=False)
    for field in old.field:
        path = f"message {name}: field {field.number} ({field.name})"
        now = fields.get(field.number)
        if now is None:
            missing = reserved.missing(field.number, field.name)
            if missing:
                found.append(f"{path}: removed without reserving its {missing}")
            continue
        found += [f"{path}: {change}" for change in _field_changes(old, field, new, now)]
    found += [
        f"message {name}: {change}"
        for change in reserved.lost(old.reserved_range, old.reserved_name, inclusive=False)
    ]
    return found


def _field_changes(
    old_message: d.DescriptorProto,
    old: d.FieldDescriptorProto,
    new_message: d.DescriptorProto,
    new: d.FieldDescriptorProto,
) -> Iterator[str]:
    if new.name != old.name:
        yield f"name changed from {old.name} to {new.name} (JSON carries names)"
    elif new.json_name != old.json_name:
        yield f"JSON name changed from {old.json_name} to {new.json_name}"
    if (new.type, new.type_name) != (old.type, old.type_name):
        yield f"type changed from {_type(old)} to {_type(new)}"
    if (new.label == new.LABEL_REPEATED) != (old.label == old.LABEL_REPEATED):
        yield f"label changed from {_label(old)} to {_label(new)}"
    if new.proto3_optional != old.proto3_optional:
        change = "gained" if new.proto3_optional else "lost"
        yield f"{change} its presence (optional): an unset value reads differently"
    was, is_now = _oneof(old_message, old), _oneof(new_message, new)
    if was != is_now:
        if was is None:
            yield f"moved into oneof {is_now}"
        elif is_now is None:
            yield f"moved out of oneof {was}"
        else:
            yield f"moved from oneof {was} to oneof {is_now}"


def _enum_changes(
    name: str, old: d.EnumDescriptorProto, new: d.EnumDescriptorProto
) -> list[str]:
    found = []
    by_number = {value.number: value for value in new.value}
    by_name = {value.name: value for value in new.value}
    reserved = _Reserved(new.reserved_range, new.reserved_name, inclusive=True)
    for value in old.value:
        path = f"enum {name}: value {value.number} ({value.name})"
        moved = by_name.get(value.name)
        if moved is not None and moved.number != value.number:
            found.append(f"{path}: renumbered from {value.number} to {moved.number}")
            continue
        now = by_number.get(value.number)
        if now is None:
            missing = reserved.missing(value.number, value.name)
            if missing:
                found.append(f"{path}: removed without reserving its {missing}")
        elif now.name != value.name:
            found.append(f"{path}: renamed to {now.name} (JSON carries names)")
    found += [
        f"enum {name}: {change}"
        for change in reserved.lost(old.reserved_range, old.reserved_name, inclusive=True)
    ]
    return found


class _Reserved:
    """A message's or an enum's reserved numbers and names (enum ranges include their end)."""

    def __init__(self, ranges: Iterable[Any], names: Iterable[str], inclusive: bool) -> None:
        self.ranges = _spans(ranges, inclusive)
        self.names = set(names)

    def covers(self, start: int, end: int) -> bool:
        """Whether every number of [start, end) is reserved."""
        for first, after in self.ranges:
            if first <= start < after:
                start = after
            if start >= end:
                return True
        return start >= end

    def missing(self, number: int, name: str) -> str:
        """What of a removed number and name is not reserved ('' when both are)."""
        gaps = []
        if not self.covers(number, number + 1):
            gaps.append("number")
        if name not in self.names:
            gaps.append("name")
        return " and ".join(gaps)

    def lost(self, ranges: Iterable[Any], names: Iterable[str], inclusive: bool) -> list[str]:
        """Each earlier reservation that this one no longer keeps."""
        found = []
        for start, end in _spans(ranges, inclusive):
            uncovered = self._uncovered(start, end)
            found += [f"reserved numbers {a} to {b - 1} no longer reserved" for a, b in uncovered]
        found += [f"reserved name {n} no longer reserved" for n in sorted(set(names) - self.names)]
        return found

    def _uncovered(self, start: int, end: int) -> list[tuple[int, int]]:
        gaps = []
        at = start
        for first, after in self.ranges:
            if after <= at or first >= end:
                continue
            if first > at:
                gaps.append((at, first))
            at = max(at, after)
        if at < end:
            gaps.append((at, end))
        return gaps


def _spans(ranges: Iterable[Any], inclusive: bool) -> list[tuple[int, int]]:
    """Sorted, merged [start, end) spans of reserved ranges (a message's or an enum's)."""
    spans = sorted((int(r.start), int(r.end) + (1 if inclusive else 0)) for r in ranges)
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _type(field: d.FieldDescriptorProto) -> str:
    return field.type_name if field.type_name else _TYPE_NAMES[field.type]


def _label(field: d.FieldDescriptorProto) -> str:
    return "repeated" if field.label == field.LABEL_REPEATED else "singular"


def _oneof(message: d.DescriptorProto, field: d.FieldDescriptorProto) -> str | None:
    """The real oneof holding the field (None: none, or the synthetic one of `optional`)."""
    if not field.HasField("oneof_index") or field.proto3_optional:
        return None
    return str(message.oneof_decl[field.oneof_index].name)


def _services(files: d.FileDescriptorSet) -> dict[str, d.ServiceDescriptorProto]:
    return {_full(f.package, service.name): service for f in files.file for service in f.service}


def _messages(files: d.FileDescriptorSet) -> dict[str, d.DescriptorProto]:
    found: dict[str, d.DescriptorProto] = {}

    def add(prefix: str, messages: Iterable[d.DescriptorProto]) -> None:
        for message in messages:
            name = _full(prefix, message.name)
            found[name] = message
            add(name, message.nested_type)

    for file in files.file:
        add(file.package, file.message_type)
    return found


def _enums(files: d.FileDescriptorSet) -> dict[str, d.EnumDescriptorProto]:
    found = {_full(f.package, enum.name): enum for f in files.file for enum in f.enum_type}
    for name, message in _messages(files).items():
        found.update({_full(name, enum.name): enum for enum in message.enum_type})
    return found


def _full(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


# ----------------------------------------------------------------------------- command
def main(argv: list[str] | None = None) -> int:
    """Check the proto against a release's descriptor, or write a release's descriptor."""
    parser = argparse.ArgumentParser(
        prog="python -m boardbot.tools.proto_breaking",
        description="Report the proto's breaking changes against a release's descriptor "
        "(docs/compatibility.md).",
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the source tree")
    parser.add_argument(
        "--against", type=Path, help="a descriptor set (default: the newest release's)"
    )
    parser.add_argument(
        "--write-release",
        metavar="VERSION",
        help="write the current proto as release VERSION's descriptor (X.Y.Z) and stop",
    )
    args = parser.parse_args(argv)
    try:
        current = compile_protos(args.root, proto_files(args.root))
        if args.write_release is not None:
            return _write_release(args.root, args.write_release, current)
        against = args.against or newest_release(args.root / DESCRIPTORS)
        changes = breaking_changes(read_descriptor_set(against), current)
    except ProtoBreakingError as error:
        print(f"proto_breaking: {error}", file=sys.stderr)
        return 2
    shown = _shown(against, args.root)
    if not changes:
        print(f"no breaking change against {shown}")
        return 0
    print(f"{len(changes)} breaking change(s) against {shown}:")
    for change in changes:
        print(f"  {change}")
    return 1


def _write_release(root: Path, version: str, current: d.FileDescriptorSet) -> int:
    if not _VERSION.fullmatch(version):
        raise ProtoBreakingError(f"release version {version[:32]!r}: expected X.Y.Z")
    path = root / DESCRIPTORS / f"boardbot-{version}.binpb"
    if path.exists():
        raise ProtoBreakingError(f"{path} exists: a release's descriptor is never rewritten")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(current.SerializeToString(deterministic=True))
    print(f"wrote {_shown(path, root)}")
    return 0


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
