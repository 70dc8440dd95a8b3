#!/usr/bin/env python3
"""schema_keys.py SCHEMA REPORT SECTION: every key the report has under
SECTION (objects and array items, all depths) is described in the schema's
properties there; prints each undescribed key and exits 1. The schema's own
validation accepts extra keys, so a key added to a renderer without its unit
and description would otherwise pass unseen."""
import json
import sys


def resolve(schema, node):
    while isinstance(node, dict) and "$ref" in node:
        d = schema
        for part in node["$ref"].lstrip("#/").split("/"):
            d = d[part]
        node = d
    return node


def walk(schema, val, node, path, bad):
    node = resolve(schema, node)
    if not isinstance(node, dict):
        return
    if isinstance(val, dict):
        props = node.get("properties", {})
        open_map = isinstance(node.get("additionalProperties"), dict) or "patternProperties" in node
        for k, v in val.items():
            if k in props:
                walk(schema, v, props[k], path + "." + k, bad)
            elif not open_map:
                bad.append(path + "." + k)
    elif isinstance(val, list) and "items" in node:
        for v in val:
            walk(schema, v, node["items"], path + "[]", bad)


def main():
    schema = json.load(open(sys.argv[1]))
    report = json.load(open(sys.argv[2]))
    sec = sys.argv[3]
    bad = []
    walk(schema, report[sec], schema["properties"][sec], sec, bad)
    for b in sorted(set(bad)):
        print("not in the schema:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
