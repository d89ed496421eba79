# Sourced by smaps-hard.test and smaps-hard-live.test.
# jq_py FILE EXPR: EXPR (python, the document as j) must be true
jtrue() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
print(json.dumps(j.get("total")), json.dumps(j.get("coverage")))
sys.exit(0 if ok else 1)' "$1" "$2"
}
