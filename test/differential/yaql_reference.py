"""Evaluates YAQL expressions with the reference implementation (python3-yaql), configured as
Nailgun configured it. Reads {"contexts": [...], "expressions": [...]} as JSON on stdin and writes
one result per (context, expression) pair: {"ok": true, "value": ...} or {"ok": false, "error": name}.
"""
import json
import sys

import yaql

engine = yaql.YaqlFactory().create({
    'yaql.limitIterators': 5000,
    'yaql.memoryQuota': 20000,
    'yaql.convertTuplesToLists': True,
    'yaql.convertSetsToLists': True,
})

request = json.load(sys.stdin)
parsed = [engine(text) for text in request['expressions']]
results = []
for data in request['contexts']:
    row = []
    for expression in parsed:
        try:
            value = expression.evaluate(data=data, context=yaql.create_context())
            row.append({'ok': True, 'value': json.loads(json.dumps(value))})
        except Exception as e:  # every failure is an answer to compare
            row.append({'ok': False, 'error': type(e).__name__})
    results.append(row)
json.dump(results, sys.stdout)
