#!/usr/bin/env python3
"""validate.py SCHEMA REPORT... — validates reports with python3-jsonschema's
Draft202012Validator (the schema itself is checked first). Prints every
error with its JSON path; exit 1 on any error, 2 when jsonschema is missing."""
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    print("validate.py: python3-jsonschema with Draft202012Validator is not installed")
    sys.exit(2)

schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
v = Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        bad += 1
        print("%s: /%s: %s" % (path, "/".join(str(p) for p in e.absolute_path), e.message[:300]))
sys.exit(1 if bad else 0)
