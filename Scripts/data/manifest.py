"""Write or check Data/MANIFEST.sha256 (python3 standard library only, no downloads)."""

import hashlib
import os
import sys

MANIFEST = "MANIFEST.sha256"
# Everything in Data/ together, layers and licence texts.
BUDGET_BYTES = 45_000_000


def data_files(root):
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        for name in sorted(files):
            path = os.path.relpath(os.path.join(folder, name), root)
            if path != MANIFEST:
                found.append(path)
    return sorted(found)


def digest(path):
    hasher = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


def write(root):
    lines = [f"{digest(os.path.join(root, path))}  {path}\n" for path in data_files(root)]
    with open(os.path.join(root, MANIFEST), "w", encoding="utf-8") as handle:
        handle.writelines(lines)


def check(root):
    manifest_path = os.path.join(root, MANIFEST)
    if not os.path.exists(manifest_path):
        print(f"build-data --check: {manifest_path} is missing; run Scripts/build-data", file=sys.stderr)
        return 1
    expected = {}
    with open(manifest_path, encoding="utf-8") as handle:
        for line in handle:
            checksum, path = line.rstrip("\n").split("  ", 1)
            expected[path] = checksum
    problems = []
    present = set(data_files(root))
    for path, checksum in sorted(expected.items()):
        if path not in present:
            problems.append(f"{path}: missing")
        elif digest(os.path.join(root, path)) != checksum:
            problems.append(f"{path}: sha256 differs from {MANIFEST}")
    for path in sorted(present - set(expected)):
        problems.append(f"{path}: not in {MANIFEST}")
    for problem in problems:
        print(f"build-data --check: {root}/{problem}", file=sys.stderr)
    if problems:
        print("build-data --check: run Scripts/build-data to regenerate Data/", file=sys.stderr)
        return 1
    total = sum(os.path.getsize(os.path.join(root, path)) for path in present)
    if total > BUDGET_BYTES:
        print(f"build-data --check: Data/ holds {total:,} bytes, over the budget of {BUDGET_BYTES:,}", file=sys.stderr)
        return 1
    print(f"build-data --check: {len(expected)} files match {MANIFEST} ({total:,} bytes)")
    return 0


if __name__ == "__main__":
    command, root = sys.argv[1], sys.argv[2]
    if command == "write":
        write(root)
    else:
        sys.exit(check(root))
