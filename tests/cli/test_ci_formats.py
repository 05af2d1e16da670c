#!/usr/bin/env python3
"""The CI formats through the real binary (SPEC §3.1): `-f gcc`, `-f github`, `-f sarif` and
`-f junit` on a Tiled map (TMX and TMJ), an LDtk level and a scene with failing rules, each
finding at the line and column of its object -- found here in the map's own text, not written
down -- with side b's place too; `--strict`; the GitHub lines parsed back as the Actions runner
parses them; the JUnit XML read back; the SARIF log validated by Microsoft's SARIF Multitool
when it is given (tests/deps.sh --fuzz installs it with npm).

    python3 tests/cli/test_ci_formats.py --bin build/cli/collide [--sarif-multitool PATH] [-k TEXT]
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import test_cli as t
from test_cli import check, collide, eq, write

ROOT = t.ROOT
RULES = "samples/tiled/level-rules.json"
MULTITOOL = None
TESTS = []


def test(fn):
    TESTS.append((fn.__name__, fn))
    return fn


def place(text, at):
    """1-based line and byte column of offset `at` in `text` (bytes)."""
    line = text.count(b"\n", 0, at) + 1
    return line, at - (text.rfind(b"\n", 0, at) + 1) + 1


def tmx_object_place(path, object_id):
    text = (ROOT / path).read_bytes()
    return place(text, text.index(b'<object id="%d"' % object_id))


def json_object_place(path, key, value, after=None):
    """The '{' of the JSON object holding `"key": value` (the first after `after`)."""
    text = (ROOT / path).read_bytes()
    start = text.index(after.encode()) if after else 0
    m = re.compile(rb'"%s":\s*%s[,\s}]' % (re.escape(key.encode()), re.escape(value.encode()))).search(text, start)
    check(m is not None, f"{path}: no {key} {value}")
    return place(text, text.rindex(b"{", 0, m.start()))


def gcc_lines(r):
    out = []
    for line in r.text.splitlines():
        m = re.match(r"^(.*?):(\d+):(\d+): (error|warning): (.*) \[(.*)\]$", line)
        check(m is not None, f"not a gcc line: {line!r}")
        out.append({"file": m[1], "line": int(m[2]), "col": int(m[3]), "level": m[4], "message": m[5], "rule": m[6]})
    return out


def github_commands(text):
    """The workflow commands of `text` as the runner reads them (actions/runner's
    ActionCommand.TryParseV2: `::name k=v,k=v::data`, properties split at ',' and '=',
    then unescaped: %25 %0D %0A %3A %2C)."""
    def unescape(s, prop):
        s = s.replace("%0D", "\r").replace("%0A", "\n")
        if prop:
            s = s.replace("%3A", ":").replace("%2C", ",")
        return s.replace("%25", "%")
    out = []
    for line in text.split("\n"):
        if not line:
            continue
        check(line.startswith("::"), f"not a workflow command: {line!r}")
        head, sep, data = line[2:].partition("::")
        check(sep == "::", f"no '::' after the command: {line!r}")
        name, _, props = head.partition(" ")
        properties = {}
        for p in props.split(","):
            if p:
                k, _, v = p.partition("=")
                properties[k] = unescape(v, True)
        out.append({"command": name, "properties": properties, "message": unescape(data, False)})
    return out


def violations_of(path, *options):
    """(rule, a, b) of every violation in the JSON report, in report order."""
    scene = json.loads(collide("check", *options, path).out)["scenes"][0]
    return [(r["name"], v["a"], v.get("b")) for r in scene["rules"] if not r["passed"] for v in r["violations"]]


MAPS = [  # input, options, how to find object a's place in the map's text
    ("samples/tiled/dungeon.tmx", ["--rules", RULES]),
    ("samples/tiled/dungeon.tmj", ["--rules", RULES]),
]


def expected_place(path, obj_id):
    """Where object `obj_id` (a scene id "name#N" of a Tiled object) was written."""
    n = int(obj_id.rsplit("#", 1)[1])
    if path.endswith(".tmx"):
        return tmx_object_place(path, n)
    return json_object_place(path, "id", str(n), after='"objects"')


@test
def gcc_places_each_finding_at_its_object():
    for path, options in MAPS:
        r = collide("check", "-f", "gcc", *options, path)
        eq(r.code, 1, f"{path}: exit status")
        lines = gcc_lines(r)
        expected = violations_of(path, *options)
        eq([(x["rule"]) for x in lines], [v[0] for v in expected], f"{path}: one line per violation, in order")
        for x, (rule, a, b) in zip(lines, expected):
            eq(x["file"], path, "file")
            eq((x["line"], x["col"]), expected_place(path, a), f"{path}: {a}")
            eq(x["level"], "error", "level")
            check(f"'{b}'" in x["message"], f"side b {b!r} named in {x['message']!r}")
            check(re.search(re.escape(path) + r":\d+:\d+", x["message"]), f"side b's place in {x['message']!r}")


def places_in(fmt, r):
    """(file, line, col, level) of each finding of a CI-format report, read as its consumer would."""
    if fmt == "gcc":
        return [(x["file"], x["line"], x["col"], x["level"]) for x in gcc_lines(r)]
    if fmt == "github":
        return [(c["properties"]["file"], int(c["properties"]["line"]), int(c["properties"]["col"]), c["command"])
                for c in github_commands(r.text)]
    if fmt == "sarif":
        out = []
        for x in json.loads(r.out)["runs"][0]["results"]:
            loc = x["locations"][0]["physicalLocation"]
            out.append((loc["artifactLocation"]["uri"], loc["region"]["startLine"], loc["region"]["startColumn"], x["level"]))
        return out
    out = []  # junit: "FILE:LINE:COL: message" lines in each failure
    for f in ET.fromstring(r.out).iter("failure"):
        for line in f.text.splitlines():
            m = re.match(r"^(.*?):(\d+):(\d+): ", line)
            check(m is not None, f"a JUnit failure line without its place: {line!r}")
            out.append((m[1], int(m[2]), int(m[3]), "error"))
    return out


@test
def every_format_places_the_findings_of_every_map_kind():
    # The same findings, at the same places, in gcc, github, sarif and junit, for a TMX map, a
    # TMJ map and an LDtk level; side b's place is in each message (checked in gcc above).
    tmp = Path(tempfile.mkdtemp())
    ldtk_rules = write(tmp, "ldtk-rules.json", {"rules": [
        {"name": "coins far from walls", "pairs": "Coin:Collisions", "expect": "none", "clearance": 1000}]})
    cases = [("samples/tiled/dungeon.tmx", ["--rules", RULES]), ("samples/tiled/dungeon.tmj", ["--rules", RULES]),
             ("samples/ldtk/platformer.ldtk#Level_0", ["--rules", str(ldtk_rules)])]
    for path, options in cases:
        report = json.loads(collide("check", "--locations", *options, path).out)["scenes"][0]
        expected = [(v["source_a"]["file"], v["source_a"]["line"], v["source_a"]["column"])
                    for rule in report["rules"] if not rule["passed"] for v in rule["violations"]]
        check(expected, f"{path}: no violation to place")
        if path.endswith(".tmx"):  # and the sources are the objects' own lines
            eq(expected[0][1:], tmx_object_place(path, 3), "coin#3's <object>")
        for fmt in ("gcc", "github", "sarif", "junit"):
            r = collide("check", "-f", fmt, *options, path)
            eq(r.code, 1, f"{path} -f {fmt}: exit status")
            eq([p[:3] for p in places_in(fmt, r)], expected, f"{path} -f {fmt}: places")


@test
def an_ldtk_level_places_each_entity():
    rules = write(Path(tempfile.mkdtemp()), "ldtk-rules.json", {
        "rules": [{"name": "coins clear of spikes", "pairs": "Coin:Spikes", "expect": "none"},
                  {"name": "the player stands on something", "pairs": "Player:Collisions", "expect": "some"},
                  {"name": "no coin in the walls", "pairs": "Coin:Collisions", "expect": "none", "clearance": 1000}]})
    path = "samples/ldtk/platformer.ldtk#Level_0"
    r = collide("check", "-f", "gcc", "--rules", str(rules), path)
    lines = gcc_lines(r)
    check(lines, f"no finding: {r.err}")
    report = json.loads(collide("check", "--locations", "--rules", str(rules), path).out)["scenes"][0]
    text = (ROOT / "samples/ldtk/platformer.ldtk").read_bytes()
    sources = {}
    for rule in report["rules"]:
        for v in rule["violations"]:
            sources[v["a"]] = v["source_a"]
    entities = [x for x in lines if not x["message"].startswith("no pair of")]
    check(entities, f"no entity finding: {lines}")
    for x in lines:
        if x["message"].startswith("no pair of"):  # an empty `some`: at the rule, in the rules file
            eq(x["file"], str(rules), "file of an empty 'some'")
            continue
        eq(x["file"], "samples/ldtk/platformer.ldtk", "file")
        a = x["message"].split("'")[1]
        src = sources[a]
        # The entity instance's '{', found from its iid in the project's text.
        at = text.rindex(b"{", 0, text.index(b'"%s"' % src["iid"].encode()))
        eq((x["line"], x["col"]), place(text, at), f"entity {a}")


@test
def github_lines_parse_back_with_their_escapes():
    # Ids with every character the runner escapes: %, ',', ':' and a line break.
    tmp = Path(tempfile.mkdtemp())
    scene = write(tmp, "odd, names: 100%.json", {
        "shapes": [{"id": "coin,1:a%b", "type": "circle", "center": [0, 0], "radius": 2, "groups": ["coin"]},
                   {"id": "wall\nnorth", "type": "rect", "min": [-1, -1], "max": [5, 5], "groups": ["wall"]}],
        "rules": [{"name": "coins: not in walls, 100%", "pairs": "coin:wall", "expect": "none"}]})
    r = collide("check", "-f", "github", str(scene))
    eq(r.code, 1, "exit status")
    commands = github_commands(r.text)
    eq(len(commands), 1, "one finding")
    c = commands[0]
    eq(c["command"], "error", "command")
    eq(c["properties"]["file"], str(scene), "file (with ',' ':' '%' in its name)")
    eq(c["properties"]["title"], "coins: not in walls, 100%", "title")
    text = scene.read_bytes()
    eq((int(c["properties"]["line"]), int(c["properties"]["col"])),
       place(text, text.rindex(b"{", 0, text.index(b'"coin,1:a%b"'))), "line, col")
    check("'coin,1:a%b' collides with 'wall\nnorth'" in c["message"], f"message {c['message']!r}")
    # A warning under --strict is ::warning.
    r = collide("check", "-f", "github", "--strict", "--pairs", "coins:wall", str(scene))
    kinds = [c["command"] for c in github_commands(r.text)]
    check("warning" in kinds, f"no ::warning for a selector that selects nothing: {r.text!r}")


@test
def strict_makes_warnings_findings():
    tmp = Path(tempfile.mkdtemp())
    # A mistyped selector: "coins" selects nothing. Without --strict, a warning and exit 0.
    rules = write(tmp, "rules.json", {"rules": [{"name": "coins clear", "pairs": "coins:Walls", "expect": "none"}]})
    r = collide("check", "-q", "-f", "gcc", "--rules", str(rules), "samples/tiled/dungeon.tmx")
    eq(r.code, 0, "exit status without --strict")
    eq(r.text, "", "no finding without --strict")
    r = collide("check", "-q", "-f", "gcc", "--strict", "--rules", str(rules), "samples/tiled/dungeon.tmx")
    eq(r.code, 1, "exit status with --strict")
    lines = gcc_lines(r)
    sel = [x for x in lines if "selector 'coins' selects nothing" in x["message"]]
    eq(len(sel), 1, "the selector's warning")
    eq((sel[0]["file"], sel[0]["level"]), (str(rules), "warning"), "at the rule in the rules file")
    text = rules.read_bytes()
    eq((sel[0]["line"], sel[0]["col"]), place(text, text.index(b'{"name"')), "the rule's place")
    # The map's own warning: the text object, at its <object>.
    hint = [x for x in lines if "text object" in x["message"]]
    eq(len(hint), 1, "the text object's warning")
    eq((hint[0]["line"], hint[0]["col"]), tmx_object_place("samples/tiled/dungeon.tmx", 11), "at the text object")
    check("1 warning" in r.err or "warnings in" in r.err, f"stderr says why: {r.err!r}")


@test
def junit_reads_back():
    r = collide("check", "-f", "junit", "samples/rules-fail.json")
    eq(r.code, 1, "exit status")
    root = ET.fromstring(r.out)
    eq(root.tag, "testsuites", "root")
    suites = root.findall("testsuite")
    eq(len(suites), 1, "one suite per input")
    s = suites[0]
    report = json.loads(collide("check", "samples/rules-fail.json").out)["scenes"][0]
    rules = {"rule '%s'" % r["name"]: r["passed"] for r in report["rules"]}
    cases = {c.get("name"): c for c in s.findall("testcase")}
    for name, passed in rules.items():
        check(name in cases, f"no test case {name}")
        eq(cases[name].find("failure") is None, passed, f"{name}: failure element")
    eq(int(s.get("failures")), sum(1 for c in cases.values() if c.find("failure") is not None), "failures count")
    eq(int(s.get("tests")), len(cases), "tests count")
    failed = cases["rule 'spawns clear of walls'"].find("failure").text
    check(re.search(r"samples/rules-fail\.json:\d+:\d+: 'spawn-3-in-wall' collides with 'dungeon'", failed),
          f"failure text {failed!r}")
    check(any(n.startswith("move '") for n in cases), "a test case per move with an expectation")


@test
def sarif_is_a_valid_log_with_related_locations():
    r = collide("check", "-f", "sarif", "--strict", "--rules", RULES, "samples/tiled/dungeon.tmx", "samples/rules-fail.json")
    eq(r.code, 1, "exit status")
    log = json.loads(r.out)
    eq(log["version"], "2.1.0", "version")
    run = log["runs"][0]
    rules = [x["id"] for x in run["tool"]["driver"]["rules"]]
    check("pickups are not inside walls" in rules and "move" in rules, f"rules {rules}")
    coin = [x for x in run["results"] if x["ruleId"] == "pickups are not inside walls"]
    eq(len(coin), 1, "the coin in the wall")
    loc = coin[0]["locations"][0]["physicalLocation"]
    eq(loc["artifactLocation"]["uri"], "samples/tiled/dungeon.tmx", "uri relative to the current directory")
    eq((loc["region"]["startLine"], loc["region"]["startColumn"]), tmx_object_place("samples/tiled/dungeon.tmx", 3),
       "region")
    related = coin[0]["relatedLocations"][0]
    eq(related["message"]["text"], "Walls", "related location names side b")
    for x in run["results"]:
        eq(rules[x["ruleIndex"]], x["ruleId"], "ruleIndex")
        check(re.fullmatch(r"[0-9a-f]{16}", x["partialFingerprints"]["collideFinding/v1"]), "fingerprint")
    # Moving an object keeps its fingerprint (no coordinates in it).
    prints = {x["partialFingerprints"]["collideFinding/v1"] for x in run["results"]}
    tmp = Path(tempfile.mkdtemp())
    moved = (ROOT / "samples/rules-fail.json").read_text().replace('"id": "potion-floating"', '\n"id": "potion-floating"')
    (tmp / "samples").mkdir()
    (tmp / "samples/rules-fail.json").write_text(moved)
    r2 = collide("check", "-f", "sarif", "samples/rules-fail.json", cwd=tmp)
    again = {x["partialFingerprints"]["collideFinding/v1"] for x in json.loads(r2.out)["runs"][0]["results"]}
    check(again <= prints, "a finding moved within its file changed its fingerprint")
    if MULTITOOL:
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "collide.sarif"
            f.write_bytes(r.out)
            v = subprocess.run([MULTITOOL, "validate", str(f)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=300)
            out = v.stdout.decode("utf-8", "replace")
            errors = [line for line in out.splitlines() if re.search(r": error [A-Z]+\d+:", line)]
            eq(errors, [], "SARIF Multitool errors")
            check("Analysis completed successfully" in out, f"the multitool did not finish: {out[-500:]!r}")


@test
def baseline_round_trip():
    tmp = Path(tempfile.mkdtemp())
    scene = json.loads((ROOT / "samples/rules-fail.json").read_text())
    write(tmp, "level.json", scene)
    r = collide("check", "-q", "--write-baseline", "base.json", "level.json", cwd=tmp)
    eq(r.code, 1, "the first run fails")
    base = json.loads((tmp / "base.json").read_text())
    keys = base["findings"]
    check(keys and all(set(k) <= {"rule", "file", "a", "b"} for k in keys), f"keys without coordinates: {keys}")
    eq(keys, sorted(keys, key=lambda k: (k["rule"], k["file"], k.get("a", ""), k.get("b", ""))), "sorted")

    def run(*extra):
        r = collide("check", "-q", "--baseline", "base.json", *extra, "level.json", cwd=tmp)
        return r, json.loads(r.out)["scenes"][0] if r.out and not extra else None

    r, report = run()
    eq(r.code, 0, "rerun: exit 0")
    eq((report["summary"]["known"], report["summary"]["fixed"]), (len(keys), 0), "rerun: all known, none fixed")
    check(all(v.get("known") for rule in report["rules"] for v in rule["violations"]), "each violation known")
    eq(collide("check", "-q", "-f", "gcc", "--baseline", "base.json", "level.json", cwd=tmp).text, "",
       "gcc leaves known findings out")
    sarif = json.loads(collide("check", "-q", "-f", "sarif", "--baseline", "base.json", "level.json", cwd=tmp).out)
    check(all(x["level"] == "note" for x in sarif["runs"][0]["results"]), "SARIF: known findings are notes")

    # A moved object stays known; a renamed one is new; a new violation is new.
    by_id = {s["id"]: s for s in scene["shapes"]}
    wall = by_id["spawn-3-in-wall"]
    for key in ("center", "at", "min"):
        if key in wall:
            wall[key] = [v + 0.25 for v in wall[key]] if isinstance(wall[key][0], (int, float)) else wall[key]
    write(tmp, "level.json", scene)
    r, report = run()
    eq(r.code, 0, "moved: still known")
    new_spawn = dict(wall, id="spawn-4-in-wall")
    scene["shapes"].append(new_spawn)
    write(tmp, "level.json", scene)
    r = collide("check", "-q", "-f", "gcc", "--baseline", "base.json", "level.json", cwd=tmp)
    eq(r.code, 1, "a new violation fails")
    eq([x["message"].split("'")[1] for x in gcc_lines(r)], ["spawn-4-in-wall"], "one new finding, listed alone")
    # Fix one: the floating potion now rests on a shelf -> removed; its key is fixed.
    scene["shapes"] = [s for s in scene["shapes"] if s["id"] not in ("potion-floating", "spawn-4-in-wall")]
    write(tmp, "level.json", scene)
    r, report = run()
    eq(r.code, 0, "fixed: exit 0")
    eq(report["summary"]["fixed"], 1, "one fixed")
    # Renaming a known one makes it new.
    wall["id"] = "spawn-3b"
    write(tmp, "level.json", scene)
    eq(collide("check", "-q", "--baseline", "base.json", "level.json", cwd=tmp).code, 1, "renamed: new")


@test
def a_bad_baseline_is_an_input_error():
    tmp = Path(tempfile.mkdtemp())
    write(tmp, "base.json", {"findings": [{"file": "x.json"}]})
    r = collide("check", "--baseline", str(tmp / "base.json"), "samples/spec-example.json")
    eq(r.code, 2, "exit status")
    check("/findings/0" in r.err and "rule" in r.err, f"message names the key: {r.err!r}")
    eq(r.out, b"", "nothing on stdout")


IGNORE_MAP = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="4" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="things" tilewidth="16" tileheight="16" tilecount="4" columns="2">
  <tile id="1">
   <properties><property name="collide_ignore" value="coins clear of walls"/></properties>
  </tile>
 </tileset>
 <layer id="1" name="Walls" width="4" height="4">
  <data encoding="csv">1,1,1,1,1,0,0,1,1,0,0,1,1,1,1,1</data>
 </layer>
 <objectgroup id="2" name="Coins">
  <object id="1" name="coin" type="coin" x="0" y="0" width="8" height="8"/>
  <object id="2" name="coin" type="coin" x="4" y="4" width="8" height="8">
   <properties><property name="collide_ignore" value="coins clear of walls"/></properties>
  </object>
  <object id="3" name="coin" type="coin" gid="2" x="48" y="64" width="8" height="8"/>
 </objectgroup>
 <objectgroup id="3" name="Decor">
  <properties><property name="collide_ignore" value="*"/></properties>
  <object id="4" name="lamp" type="coin" x="2" y="50" width="8" height="8"/>
 </objectgroup>
</map>
"""


@test
def collide_ignore_silences_exactly_its_rule():
    tmp = Path(tempfile.mkdtemp())
    write(tmp, "level.tmx", IGNORE_MAP)
    write(tmp, "rules.json", {"rules": [
        {"name": "coins clear of walls", "pairs": "coin:Walls", "expect": "none"},
        {"name": "coins apart", "pairs": "coin:coin", "expect": "none"}]})
    r = collide("check", "-q", "--rules", "rules.json", "level.tmx", cwd=tmp)
    scene = json.loads(r.out)["scenes"][0]
    rules = {x["name"]: [(v["a"], v.get("b")) for v in x["violations"]] for x in scene["rules"]}
    # coin#1 is in the wall; coin#2 ignores the rule itself (object), coin#3 by its tile, the
    # lamp by its layer ("*": every rule, the other one too).
    eq(rules["coins clear of walls"], [("coin#1", "Walls")], "only the coin that ignores nothing")
    eq(rules["coins apart"], [("coin#1", "coin#2")], "the other rule still sees coin#2")
    eq(scene["summary"]["ignored"], 3, "ignored: the wall violations of coin#2, coin#3 and the lamp")
    eq(len(scene["collisions"]), len(json.loads(collide("check", "-q", "level.tmx", cwd=tmp).out)["scenes"][0]["collisions"]),
       "ignores never change the collisions listed")
    # The same from the imported scene ("ignore" on its shapes), and from a scene's own "ignore".
    imported = collide("import", "level.tmx", cwd=tmp)
    check('"ignore": ["coins clear of walls"]' in imported.text, "the import carries the ignores")
    write(tmp, "imported.json", imported.text)
    again = json.loads(collide("check", "-q", "--rules", "rules.json", "imported.json", cwd=tmp).out)["scenes"][0]
    eq([x["violations"] for x in again["rules"]], [x["violations"] for x in scene["rules"]], "check of the import")
    # A layer's ignore covers its grid: the Walls layer ignoring the rule silences all of it.
    write(tmp, "walls-ignore.tmx", IGNORE_MAP.replace(
        '<layer id="1" name="Walls" width="4" height="4">',
        '<layer id="1" name="Walls" width="4" height="4">\n  <properties><property name="collide_ignore" '
        'value="coins clear of walls"/></properties>'))
    r = collide("check", "-q", "-f", "gcc", "--rules", "rules.json", "walls-ignore.tmx", cwd=tmp)
    eq([x["rule"] for x in gcc_lines(r)], ["coins apart"], "the grid's layer ignores its rule")


@test
def an_ldtk_entity_field_collide_ignore_silences_its_rule():
    tmp = Path(tempfile.mkdtemp())
    text = (ROOT / "samples/ldtk/platformer.ldtk").read_text()
    iid = "7c1f5a44-2f6e-11ef-9b3a-0b6c1d9e4a01"  # a coin of Level_0
    at = text.index(iid)
    field = text.index('"fieldInstances": []', at)
    text = text[:field] + ('"fieldInstances": [{"__identifier": "collide_ignore", "__type": "String", '
                           '"__value": "coins far from walls", "defUid": 99}]') + text[field + len('"fieldInstances": []'):]
    write(tmp, "p.ldtk", text)
    write(tmp, "rules.json", {"rules": [{"name": "coins far from walls", "pairs": "Coin:Collisions", "expect": "none",
                                         "clearance": 1000}]})
    def violations(path):
        scene = json.loads(collide("check", "-q", "--rules", "rules.json", path + "#Level_0", cwd=tmp).out)["scenes"][0]
        return [v["a"] for v in scene["rules"][0]["violations"]], scene["summary"].get("ignored")
    write(tmp, "plain.ldtk", (ROOT / "samples/ldtk/platformer.ldtk").read_text())
    before, none = violations("plain.ldtk")
    after, ignored = violations("p.ldtk")
    eq(none, None, "no ignores: no 'ignored' in the summary")
    eq(ignored, 1, "one ignored")
    eq(len(after), len(before) - 1, "one coin fewer")


@test
def a_bare_check_checks_the_project():
    proj = Path(tempfile.mkdtemp()) / "game"
    (proj / ".git").mkdir(parents=True)  # the search for collide.json stops at the repository's root
    (proj / "levels" / "deep").mkdir(parents=True)
    write(proj / "levels", "a.tmx", IGNORE_MAP)
    write(proj / "levels" / "deep", "b.tmx", IGNORE_MAP)
    write(proj, "rules.json", {"rules": [{"name": "coins clear of walls", "pairs": "coin:Walls", "expect": "none"}]})
    write(proj, "collide.json", {"inputs": ["levels/**/*.tmx"], "rules": "rules.json", "format": "gcc"})
    r = collide("check", "-q", cwd=proj)
    eq(r.code, 1, "the project's rule fails")
    eq(sorted({x["file"] for x in gcc_lines(r)}), ["levels/a.tmx", "levels/deep/b.tmx"], "every input, by its glob")
    # From a subfolder: the same project, its files named from there.
    r = collide("check", "-q", cwd=proj / "levels" / "deep")
    eq(sorted({x["file"] for x in gcc_lines(r)}), ["../../levels/a.tmx", "../../levels/deep/b.tmx"], "from a subfolder")
    # The command line wins: its format, its FILE.
    r = collide("check", "-q", "-f", "json", "levels/a.tmx", cwd=proj)
    eq([s["file"] for s in json.loads(r.out)["scenes"]], ["levels/a.tmx"], "FILE and -f on the command line")
    check(json.loads(r.out)["scenes"][0]["rules"], "the project's rules still apply to a FILE given")
    r = collide("check", "-q", "--no-config", "levels/a.tmx", cwd=proj)
    eq(json.loads(r.out)["scenes"][0]["rules"], [], "--no-config: no project rules")
    eq(collide("check", "--no-config", cwd=proj).code, 2, "--no-config and no FILE")
    # An unknown key is an error at its line and column.
    (proj / "collide.json").write_text('{"inputs": ["levels/*.tmx"],\n "strcit": true}\n')
    r = collide("check", cwd=proj)
    eq(r.code, 2, "exit status")
    check("collide.json:2:12: /strcit: unknown key 'strcit' (did you mean 'strict'?)" in r.err, f"message {r.err!r}")
    (proj / "collide.json").write_text('{"inputs": ["nothing/*.tmx"]}')
    r = collide("check", cwd=proj)
    eq(r.code, 2, "a glob that matches nothing")
    check("'nothing/*.tmx' matches no file" in r.err, f"message {r.err!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the collide executable")
    ap.add_argument("--sarif-multitool", help="Microsoft's SARIF Multitool, to validate the SARIF log")
    ap.add_argument("-k", default="", help="run only tests whose name contains this")
    args = ap.parse_args()
    t.BIN = str(Path(args.bin).resolve())
    global MULTITOOL
    MULTITOOL = args.sarif_multitool
    return t.run_tests(TESTS, args.k)


if __name__ == "__main__":
    sys.exit(main())
