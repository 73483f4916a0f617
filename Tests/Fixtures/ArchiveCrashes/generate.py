#!/usr/bin/env python3
"""Writes the archive fixtures of issue 26 byte for byte (Python's standard library only, deterministic).

Tests/Fixtures/ArchiveCrashes/*.zip: small .ipa-shaped archives whose central directory declares, through a ZIP64
extended-information extra field, a size or an offset that crashed the service's old archive reader (ZIPFoundation
0.9.20 and the sum in AppArchive.swift). Tests/Fixtures/Archives/*.zip (those named here): well-formed .ipa-shaped
archives, stored, deflated, with data descriptors and ZIP64, read by the tests and seeding the zip reader's fuzzer. Tests/Fuzz/InfoPlist/corpus/*.bplist: the real Info.plist
fixtures converted to binary property lists, that seed the plist reader's fuzzer (the XML ones are read from
Tests/Fixtures/RealProjects itself). Tests/Fixtures/PlistCrashes/set-in-binary-plist.bplist: the binary plist that
crashes Foundation's PropertyListSerialization on Linux.

Run from anywhere: python3 Tests/Fixtures/ArchiveCrashes/generate.py
"""
import pathlib
import plistlib
import struct
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
CRASHES = ROOT / "Tests/Fixtures/ArchiveCrashes"
ARCHIVES = ROOT / "Tests/Fixtures/Archives"
PLIST_CORPUS = ROOT / "Tests/Fuzz/InfoPlist/corpus"
PLIST_CRASHES = ROOT / "Tests/Fixtures/PlistCrashes"
REAL = ROOT / "Tests/Fixtures/RealProjects"

MAX64 = (1 << 64) - 1
# A fixed DOS time and date (2026-01-01 00:00), so the bytes never change.
DOS_TIME, DOS_DATE = 0, (46 << 9) | (1 << 5) | 1


def deflate(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush()


def archive(entries, zip64_end=False, comment=b""):
    """A zip of `entries`, dicts with: name, data, method (0 or 8), flags, and `cd`, a dict of values the central
    directory declares instead of the real ones (uncompressed, compressed, offset), each written through a ZIP64
    extra field (its 32-bit field 0xFFFFFFFF). zip64_end writes the ZIP64 end record and locator as well."""
    out = bytearray()
    central = bytearray()
    for entry in entries:
        name, data = entry["name"].encode(), entry["data"]
        method = entry.get("method", 8)
        stored = deflate(data) if method == 8 else data
        crc = zlib.crc32(data)
        flags = entry.get("flags", 0) | 0x0800  # UTF-8 names
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, DOS_TIME, DOS_DATE, crc, len(stored),
                           len(data), len(name), 0) + name + stored
        if flags & 0x0008:
            out += struct.pack("<IIII", 0x08074B50, crc, len(stored), len(data))
        declared = {"uncompressed": len(data), "compressed": len(stored), "offset": offset}
        overrides = entry.get("cd", {})
        declared.update(overrides)
        force64 = entry.get("zip64", False)
        fields32, extra64 = [], b""
        for key in ("uncompressed", "compressed", "offset"):
            if key in overrides or force64 or declared[key] >= 0xFFFFFFFF:
                fields32.append(0xFFFFFFFF)
                extra64 += struct.pack("<Q", declared[key])
            else:
                fields32.append(declared[key])
        extra = struct.pack("<HH", 0x0001, len(extra64)) + extra64 if extra64 else b""
        version = 45 if extra else 20
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | version, version, flags, method, DOS_TIME,
                               DOS_DATE, crc, fields32[1], fields32[0], len(name), len(extra), 0, 0, 0,
                               0o100644 << 16, fields32[2]) + name + extra
    directory_offset = len(out)
    out += central
    count = len(entries)
    if zip64_end:
        record = len(out)
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, (3 << 8) | 45, 45, 0, 0, count, count, len(central),
                           directory_offset)
        out += struct.pack("<IIQI", 0x07064B50, 0, record, 1)
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, len(comment))
    else:
        out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(central), directory_offset, len(comment))
    return bytes(out + comment)


PLIST = plistlib.dumps({
    "CFBundleIdentifier": "org.example.Crash", "CFBundleName": "Crash", "UIBackgroundModes": ["fetch"],
}, fmt=plistlib.FMT_BINARY)
BINARY = bytes(range(64))


def ipa(info_plist=None, app=None, zip64_end=False):
    info = {"name": "Payload/Crash.app/Info.plist", "data": PLIST}
    info.update(info_plist or {})
    binary = {"name": "Payload/Crash.app/Crash", "data": BINARY}
    binary.update(app or {})
    return archive([info, binary], zip64_end=zip64_end)


CRASH_FIXTURES = {
    # AppArchive.swift:37, `total += entry.uncompressedSize`: arithmetic overflow.
    "zip64-uncompressed-size-max.zip": ipa(app={"cd": {"uncompressed": MAX64}}),
    # ZIPFoundation Archive.swift:239: the data descriptor's position, offset + 30 + names + compressed size, overflows.
    "data-descriptor-compressed-size-max.zip": ipa(app={"flags": 0x0008, "cd": {"compressed": MAX64}}),
    # ZIPFoundation Archive+Helpers.swift:35, `Int64(size)` of the Info.plist's compressed size.
    "info-plist-compressed-size-2pow63.zip": ipa(info_plist={"cd": {"compressed": 1 << 63}}),
    # ZIPFoundation Data+Serialization.swift:40, `off_t(offset)` of the local header's offset.
    "local-header-offset-max.zip": ipa(app={"cd": {"offset": MAX64}}),
}


def real_ipa(plist_name, method, zip64=False, flags=0):
    """An .ipa shaped as Xcode exports one: the app's Info.plist (a real project's, as binary), its executable, a
    framework and an app extension with their own Info.plists, and a folder entry."""
    plist = plistlib.dumps(plistlib.loads((REAL / plist_name).read_bytes()), fmt=plistlib.FMT_BINARY)
    small = plistlib.dumps({"CFBundleIdentifier": "org.example.part"}, fmt=plistlib.FMT_BINARY)
    names = [
        ("Payload/", b""), ("Payload/App.app/Info.plist", plist), ("Payload/App.app/App", bytes(1000) + BINARY),
        ("Payload/App.app/Frameworks/Kit.framework/Info.plist", small),
        ("Payload/App.app/Frameworks/Kit.framework/Kit", BINARY * 4),
        ("Payload/App.app/PlugIns/Widget.appex/Info.plist", small),
    ]
    return archive([{"name": n, "data": d, "method": 0 if n.endswith("/") else method, "zip64": zip64,
                     "flags": flags}
                    for n, d in names], zip64_end=zip64)


CORPUS = {
    "ipa-deflate.zip": real_ipa("netnewswire-ios-Info.plist", 8),
    "ipa-stored.zip": real_ipa("mullvad-ios-Info.plist", 0),
    "ipa-zip64.zip": real_ipa("loop-Info.plist", 8, zip64=True),
    "ipa-data-descriptor.zip": real_ipa("signal-ios-Info.plist", 8, flags=0x0008),
    "app-folder-comment.zip": archive([{"name": "Sky.app/Info.plist", "data": PLIST}], comment=b"made for the corpus"),
    "empty.zip": archive([]),
}


def set_in_binary_plist():
    """A binary Info.plist whose UIBackgroundModes is a set (marker 0xC1) where plistlib wrote an array (0xA1):
    swift-corelibs-foundation's PropertyListSerialization dies of a null pointer bridging it (found by the fuzzer)."""
    plist = bytearray(plistlib.dumps({"CFBundleIdentifier": "org.example.set", "UIBackgroundModes": ["fetch"]},
                                     fmt=plistlib.FMT_BINARY))
    plist[plist.index(bytes([0xA1]))] = 0xC1
    return bytes(plist)


def main():
    for name, data in CRASH_FIXTURES.items():
        (CRASHES / name).write_bytes(data)
    for name, data in CORPUS.items():
        (ARCHIVES / name).write_bytes(data)
    (PLIST_CRASHES / "set-in-binary-plist.bplist").write_bytes(set_in_binary_plist())
    for source in sorted(REAL.glob("*-Info.plist")):
        binary = plistlib.dumps(plistlib.loads(source.read_bytes()), fmt=plistlib.FMT_BINARY)
        (PLIST_CORPUS / (source.stem + ".bplist")).write_bytes(binary)


if __name__ == "__main__":
    main()
