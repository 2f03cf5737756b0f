"""The commands that list what ecwidth knows: the catalog (``models``), every family's record for one release
(``models --families``), and the engine releases and their registries (``engines``).

They read ecwidth's own records and build nothing. ``--engine`` arrives
parsed (``ecwidth.cli.options``): a ``Release``, or None for the default.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from ecwidth.engines.releases import DEFAULT, RELEASES, Release
from ecwidth.errors import one_line


def _families(args: argparse.Namespace) -> int:
    """List every registered model type with its family's record for one engine release: whether and how it is
    served, what it ships, under which keys, with which options, and the width rule."""
    from ecwidth.families.adapter import supported_model_types
    from ecwidth.families.answers import family_record

    chosen = args.engine or DEFAULT
    rows = [family_record(model_type, chosen) for model_type in supported_model_types()]
    if args.json:
        print(json.dumps(rows))
        return 0
    width = max(len(row["model_type"]) for row in rows)
    print(f"{'MODEL TYPE':<{width}}  {chosen}: PATH, ENGINE CLASS AND WHAT IT SHIPS")
    for row in rows:
        notes = [f"options: {', '.join(row['options'])}"] if row["options"] else []
        notes += [f"{ours} as {key}" for ours, key in row["keys"].items()]
        notes += [f"{m} unserved" for m in row["unserved"]]
        notes += [f"{m} predicted only" for m in row["predicted_only"]] + (
            ["no transformers config class"] if row["engine_only"] else []
        )
        what = (
            f"{row['path']} {' / '.join(row['classes'])}: {row['ships']}"
            if row["serves"]
            else f"not served: {row['why_not']}"
        )
        print(f"{row['model_type']:<{width}}  {what}" + (f"  [{'; '.join(notes)}]" if notes else ""))
    return 0


def cmd_engines(args: argparse.Namespace) -> int:
    """List the engine releases ecwidth answers for, the transformers pin each declares, and the default; with
    ``--architectures``, every architecture each release's registry holds and what ecwidth answers for it."""
    if args.architectures:
        return _architectures(RELEASES if args.engine is None else (args.engine,), as_json=args.json)

    rows = [
        {
            "name": r.engine, "version": r.version, "key": r.key, "transformers": r.transformers,
            "measures": r.measures, "default": r == DEFAULT,
        }
        for r in RELEASES
    ]  # fmt: skip
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'ENGINE':<16}  {'TRANSFORMERS':<18}  WIDTHS")
    for row, r in zip(rows, RELEASES):
        how = "measured at startup" if r.measures else "sized from the config (no measurement)"
        print(f"{r.key:<16}  {r.transformers:<18}  {how}" + ("  (default)" if row["default"] else ""))
    return 0


def _architectures(chosen: Sequence[Release], *, as_json: bool) -> int:
    """``ecwidth engines --architectures``: one row per (release, architecture), served with its rule or why not."""
    from ecwidth.families.answers import architecture_records

    rows = [row for release in chosen for row in architecture_records(release)]
    if as_json:
        print(json.dumps(rows))
        return 0
    width = max(len(row["architecture"]) for row in rows)
    for release in chosen:
        mine = [row for row in rows if row["engine"] == release.key]
        print(f"{release}: {sum(r['served'] for r in mine)} of {len(mine)} architectures served")
        for row in mine:
            rule = ", ".join(f"{m}: {r}" for m, r in row["width_rule"].items())
            what = (
                f"{'/'.join(row['modalities'])} {rule}" if row["served"] else f"not served: {one_line(row['why_not'])}"
            )
            print(f"  {row['architecture']:<{width}}  {row['model_type']:<24}  {what}")
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    """List the catalog of published architectures: what each takes and where its config comes from."""
    if args.families:
        return _families(args)
    from ecwidth.reading.catalog import catalog_entry, catalog_names

    entries = [catalog_entry(name) for name in catalog_names()]
    if args.json:
        print(json.dumps([
            {"name": e.name, "model_type": e.config["model_type"], "hf_id": e.hf_id, "published": e.published,
             "modalities": list(e.modalities), "source": e.source}
            for e in entries
        ]))  # fmt: skip
        return 0
    width = max(len(e.name) for e in entries)
    print(f"{'NAME':<{width}}  {'PUBLISHED':<10}  {'MODEL TYPE':<16}  {'MODALITIES':<18}  HUB ID")
    for entry in entries:
        modalities, published = ",".join(entry.modalities), entry.published or "unknown"
        print(
            f"{entry.name:<{width}}  {published:<10}  {entry.config['model_type']:<16}  {modalities:<18}  {entry.hf_id}"
        )
        print(f"{'':<{width}}  source: {entry.source}")
    return 0
