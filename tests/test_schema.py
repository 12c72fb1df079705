"""Component schemas: every game's packaged files load, every kind of broken file gets one clear error naming
the file, the key and what is allowed, dump -> load is the identity, replace() never touches the original."""

import importlib
import re
import tomllib
from pathlib import Path

import pytest

from pyradice_lab.cli import main
from pyradice_lab.engine import schema
from pyradice_lab.engine.schema import (
    Array,
    Field,
    Int,
    MapOf,
    Records,
    SchemaError,
    Source,
    Str,
    Table,
    Value,
    merge,
    to_toml,
    validate,
)

GAMES = ("purramid", "pyradice", "raft", "meerkat")


def fmt(game):
    return importlib.import_module(f"pyradice_lab.{game}.components").FORMAT


# ------------------------------------------------------------------------------------------ the schema layer
SPEC = Table({
    "count": Field(Int(1, 10), "how many"),
    "name": Field(Str(max_len=8), "a name", default="x"),
    "size": Field(Value(Int(0, 5), "a size"), "a size"),
    "by_n": Field(MapOf(Int(1, 4), Int(0, 9)), "per player count", default=None),
    "item": Field(Records(Table({"id": Field(Int(1, 99), "id"), "v": Field(Array(Int(0, 9), 1, 3), "values"),
                                 "source": Field(Source(), "source")}), key="id", min_len=0), "items", default=None),
    "source": Field(Source(), "where it comes from"),
})
GOOD = {"count": 3, "size": {"value": 2, "source": "rules"}, "source": "rules",
        "item": [{"id": 7, "v": [1, 2], "source": "rules"}]}


@pytest.mark.parametrize(("doc", "message"), [
    ({**GOOD, "cuont": 1}, "f.toml: cuont: unknown key (did you mean 'count'?) (allowed: count, name, size, by_n, "
                           "item, source)"),
    ({**GOOD, "count": "two"}, "f.toml: count: expected an integer, got a string 'two' (allowed: an integer in 1..10)"),
    ({**GOOD, "count": 10**12}, "f.toml: count: 1000000000000 is out of range (allowed: an integer in 1..10)"),
    ({**GOOD, "count": True}, "f.toml: count: expected an integer, got a boolean True"),
    ({**GOOD, "count": 2.0}, "f.toml: count: expected an integer, got a number 2.0"),
    ({k: v for k, v in GOOD.items() if k != "count"}, "f.toml: count: missing (allowed: an integer in 1..10)"),
    ({**GOOD, "size": 5}, "f.toml: size: expected a table { value = ..., source = ... }, got an integer 5"),
    ({**GOOD, "size": {"value": 2}}, "f.toml: size.source: missing (allowed: rules, reconstruction, designer)"),
    ({**GOOD, "source": "guess"}, "f.toml: source: 'guess' is not allowed (allowed: rules, reconstruction, "
                                  "designer)"),
    ({**GOOD, "by_n": {"two": 1}}, "f.toml: by_n.two: is not a whole number (allowed: keys: an integer in 1..4)"),
    ({**GOOD, "by_n": 3}, "f.toml: by_n: expected a table, got an integer 3"),
    ({**GOOD, "item": [{"id": 7, "v": [1, 2, 3, 4], "source": "rules"}]}, "f.toml: item.7.v: has 4 items"),
    ({**GOOD, "item": [{"v": [1], "source": "rules"}]}, "f.toml: item[0].id: missing"),
    ({**GOOD, "item": [GOOD["item"][0], GOOD["item"][0]]}, "f.toml: item[1].id: 7 appears twice"),
    ({**GOOD, "item": 5}, "f.toml: item: expected an array of tables, got an integer 5"),
])
def test_errors_name_the_file_the_key_and_what_is_allowed(doc, message):
    with pytest.raises(SchemaError) as err:
        validate(SPEC, doc, file="f.toml")
    assert str(err.value).startswith(message)
    assert isinstance(err.value, ValueError)


def test_defaults_merge_and_designer_source():
    out = validate(SPEC, GOOD)
    assert out["name"] == "x" and "by_n" not in out
    merged = merge(out, {"size": 4, "item": [{"id": 7, "v": [5]}, {"id": 8, "v": [1]}]}, SPEC)
    assert merged["size"] == {"value": 4, "source": "designer"}
    assert merged["item"] == [{"id": 7, "v": [5], "source": "designer"}, {"id": 8, "v": [1], "source": "designer"}]
    assert merged["count"] == 3 and out["size"]["value"] == 2          # the base is not changed
    assert validate(SPEC, merged)["item"][1]["id"] == 8


def test_to_toml_round_trip_of_a_small_spec():
    doc = validate(SPEC, {**GOOD, "by_n": {"2": 4}, "name": 'q"u\x7f\n\\é'})
    text = to_toml(SPEC, doc, header="a header")
    assert text.startswith("# a header\n")
    assert "# how many [source: rules]\ncount = 3\n" in text
    assert validate(SPEC, tomllib.loads(text)) == doc


@pytest.mark.parametrize(("text", "message"), [
    ("[water\ntokens = 4\n", "line 1, column 7: not valid TOML: expected ']' at the end of a table declaration "
                             "(line 1 reads '[water')"),
    ("a = 1\na = 2\n", "line 2, column 6: not valid TOML: cannot overwrite a value"),
    ("a = [1, 2\n", "end of file: not valid TOML"),
])
def test_malformed_toml_names_the_file_line_and_what_was_expected(tmp_path, text, message):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(SchemaError, match=re.escape(f"{p}: {message}")):
        schema.read_toml(p)


def test_unreadable_files(tmp_path):
    with pytest.raises(SchemaError, match="no such file"):
        schema.read_toml(tmp_path / "missing.toml")
    with pytest.raises(SchemaError, match="is a directory"):
        schema.read_toml(tmp_path)
    (tmp_path / "bin.toml").write_bytes(b"a = '\xff\xfe'\n")
    with pytest.raises(SchemaError, match="not a TOML text file"):
        schema.read_toml(tmp_path / "bin.toml")
    (tmp_path / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(SchemaError, match="deep.toml"):
        schema.read_toml(tmp_path / "deep.toml")
    with pytest.raises(TypeError, match="components must be a path"):
        schema.read_toml(3)


# ------------------------------------------------------------------------------------------ every game
@pytest.mark.parametrize("game", GAMES)
def test_packaged_files_load_and_every_value_has_a_source(game):
    f = fmt(game)
    comp = f.default()
    for name in f.packaged:
        assert (f.data_dir / name).is_file()
    assert comp == f.load(None) and comp.content_hash() == f.from_document(f.packaged_document()).content_hash()
    rows = f.rows(comp.document)
    assert len(rows) > 10
    labels = {"sides.A.name", "sides.A.notes", "sides.B.name", "sides.B.notes"}
    assert all(src in ("rules", "reconstruction") for key, _, src, _ in rows if key not in labels), \
        [r for r in rows if r[2] not in ("rules", "reconstruction")]
    assert all(meaning for *_, meaning in rows), [r for r in rows if not r[3]]


@pytest.mark.parametrize("game", GAMES)
def test_dump_then_load_gives_the_packaged_components(game, tmp_path):
    f = fmt(game)
    comp = f.default()
    path = comp.dump(tmp_path / "mine.toml")
    again = f.load(path)
    assert again == comp and again.content_hash() == comp.content_hash()
    text = path.read_text()
    assert text.startswith("# ") and "[source: " in text
    doc = tomllib.loads(text)
    assert f.validate(doc) == comp.document                     # the file alone is complete (not just a patch)
    assert main([game, "components", "--dump", str(tmp_path / "cli.toml")]) == 0
    assert (tmp_path / "cli.toml").read_text() == text


CHANGES = {
    "meerkat": ("tile.7.values", (8, 4), "tile.7.source"),
    "raft": ("card.7.points", 3, "card.7.source"),
    "purramid": ("yarn_value", 0.5, "yarn_value.source"),
    "pyradice": ("card.Many.table", [0, 1, 2, 4], "card.Many.source"),
}


@pytest.mark.parametrize("game", GAMES)
def test_replace_returns_a_validated_copy_and_leaves_the_original(game):
    f = fmt(game)
    comp = f.default()
    before = comp.document
    path, value, source = CHANGES[game]
    new = comp.replace({path: value})
    assert comp.document == before and comp == f.default()
    got = new.get(path)
    assert (got["value"] if isinstance(got, dict) else got) == list(value) if isinstance(value, tuple) else True
    assert new.get(source) == "designer"
    assert new != comp and new.content_hash() != comp.content_hash()
    assert comp.replace(**{path: value}) == new                    # the keyword form
    assert new.replace({source: "reconstruction"}).get(source) == "reconstruction"
    with pytest.raises(SchemaError, match=r"did you mean"):
        comp.replace({path.replace(path.split(".")[0], path.split(".")[0] + "s", 1): value})
    with pytest.raises(ValueError):
        comp.replace({path: "not a value"})
    with pytest.raises(TypeError, match="changes must be a mapping"):
        comp.replace([(path, value)])


def test_replace_examples():
    from pyradice_lab.meerkat import default_components as meerkat
    from pyradice_lab.raft.components import default_components as raft

    comp = meerkat()
    v = comp.replace({"tile.7.values": (8, 4)})
    assert v.tile(7).values == (8, 4) and v.tile(7).source == "designer" and comp.tile(7).values == (6, 3)
    with pytest.raises(SchemaError, match=re.escape("tiles.7.values: no key 'tiles' in the top level (did you mean "
                                                    "'tile'?)")):
        comp.replace({"tiles.7.values": (8, 4)})
    with pytest.raises(SchemaError, match=re.escape("tile.13.values: no key '13' in tile")):
        comp.replace({"tile.13.values": (8, 4)})
    with pytest.raises(SchemaError, match=re.escape("tile.9.values: has 2 values (allowed: 3 values on tile 9")):
        comp.replace({"tile.9.values": (8, 4)})
    assert comp.replace({"pieces.meerkats": 18}).meerkats == 18             # a bare value for { value, source }
    p = meerkat().replace({"pieces.meerkats.source": "rules", "pieces.meerkats": 18})   # the source given is kept
    assert p.get("pieces.meerkats") == {"value": 18, "source": "rules"}
    g = meerkat().replace({"tile.7": {"number": 7, "values": [8, 4]}})        # a whole entry, no source: designer
    assert g.get("tile.7") == {"number": 7, "values": [8, 4], "source": "designer"}
    assert "move" not in dict(meerkat().replace({"blue.move": None}).blue)     # None removes an entry
    with pytest.raises(SchemaError, match=r"tile: has 9 entries"):
        meerkat().replace({"tile.7": None})
    r = raft()
    assert r.replace({"water.tokens": 20}).rules.water_tokens == 20
    assert r.replace({"gems.in_play.3.black": 2}).gems.in_play(3).tolist() == [7, 7, 7, 2]
    with pytest.raises(SchemaError, match="cannot be removed"):
        r.replace({"water.tokens": None})


@pytest.mark.parametrize("game", GAMES)
def test_content_hash_is_stable(game):
    f = fmt(game)
    a = f.default()
    b = f.from_document(f.packaged_document())
    assert a is not b and a == b and hash(a) == hash(b) and a.content_hash() == b.content_hash()
    assert re.fullmatch(r"[0-9a-f]{64}", a.content_hash())


# ------------------------------------------------------------------------------------------ broken files
BROKEN = {
    "meerkat": [
        ("[pieces\nmeerkats = 3\n", r"line 1, column 8: not valid TOML: expected '\]'"),
        ("pieces = 5\n", r"pieces: expected a table, got an integer 5"),
        ("[piece]\nmeerkats = 3\n", r"piece: unknown key \(did you mean 'pieces'\?\)"),
        ('[pieces]\nmeerkats = { value = 3, sorce = "rules" }\n',
         r"pieces\.meerkats\.sorce: unknown key \(did you mean 'source'\?\)"),
        ('[pieces]\nmeerkats = "two"\n', r"pieces\.meerkats\.value: expected an integer, got a string 'two'"),
        ("[pieces]\nmeerkats = 1000000000000\n",
         r"pieces\.meerkats\.value: 1000000000000 is out of range \(allowed: an integer in 1\.\.60\)"),
        ("[pieces]\nqueens = 2\n", r"pieces\.queens\.value: 2 cannot be changed \(allowed: 1 only"),
        ("[[tile]]\nnumber = 9\nvalues = [7, 4]\n", r"tile\.9\.values: has 2 values \(allowed: 3 values on tile 9"),
        ("[[tile]]\nnumber = 6\nvalues = [3, 6]\n", r"tile\.6\.values: \[3, 6\] is not highest first"),
        ("[[tile]]\nnumber = 13\nvalues = [3, 1]\n", r"tile\[10\]\.number: 13 is out of range \(allowed: an integer in 3\.\.12\)"),
        ('[[tile]]\nnumber = 6\nvalues = [6, 3]\nsource = "guess"\n', r"tile\.6\.source: 'guess' is not allowed"),
        ("[[tile]]\nnumber = 7\nvalus = [3, 1]\n", r"tile\.7\.valus: unknown key \(did you mean 'values'\?\)"),
        ('[[blue]]\neffect = "teleport"\ncopies = 1\n', r"blue\[4\]\.effect: 'teleport' is not allowed"),
        ("".join(f'[[blue]]\neffect = "{e}"\ncopies = 20\n' for e in ("move", "recall", "guardian", "swap")),
         r"blue: holds 80 tokens \(allowed: at most 60 tokens per bag\)"),
        ('[[brown]]\nfront = "move"\nback = "swap"\n', r"brown\.move\.back: 'swap' differs from its front"),
        ("[layout]\nedges = [[0, 1]]\n", r"layout\.edges\.value: leave positions \[2, 3, 4, 5, 6, 7, 8, 9\] "
                                          r"unconnected"),
        ("[layout]\nshuffle_tiles = 1\n", r"layout\.shuffle_tiles\.value: expected true or false"),
        ('[automa]\ndie_faces = ["L", "M", "H", "L", "M", "X"]\n', r"automa\.die_faces\.value\[5\]: 'X' is not "
                                                                    r"allowed"),
        ("[bonus]\nvalues = { value = 9 }\n", r"bonus\.values\.value: expected an array"),
        ("[dice]\ncount_by_face = [1, 1, 2, 2, 3]\n", r"dice\.count_by_face\.value: has 5 items"),
    ],
    "raft": [
        ("players = [2]\n", r"players: expected a table, got an array \[2\]"),
        ("[edges]\nwest = 5\n", r"edges\.west: expected a table, got an integer 5"),
        ("edges = 5\n", r"edges: expected a table, got an integer 5"),
        ("flag = 5\n", r"flag: expected a table"),
        ('water = "lots"\n', r"water: expected a table, got a string 'lots'"),
        ("[flag.depth]\ntwo = 4\n", r"flag\.depth\.two: is not a whole number"),
        ("[flag.depth]\n4 = 40\n", r"flag\.depth\.4: 40 is deeper than the 31 cards left after dealing"),
        ("[water]\ntokens = 4\n", r"water\.tokens: 4 tokens can run out \(allowed: at least players\.max x "
                                  r"players\.boats x water\.sink_at = 16"),
        ("[gems]\ntotal = 1000000000000\n", r"gems\.total: 1000000000000 is out of range"),
        ("[gems.counts]\nred = 9\n", r"gems\.counts: sum to 28"),
        ("[gems.counts]\ngreen = 1\n", r"gems\.counts\.green: unknown colour"),
        ("[gems.in_play.3]\nred = 9\n", r"gems\.in_play\.3\.red: 9 exceeds the 8 red gems"),
        ('[gems]\nwild = "red"\n', r"gems\.wild: 'red' is not the last colour"),
        ("[deck]\ncount = 40\n", r"deck\.count: is 40 but there are 39 \[\[card\]\] entries"),
        ("[[card]]\nid = 99\nslots = { red = 2 }\npoints = 2\n",
         r"deck\.count: is 39 but there are 40 \[\[card\]\] entries \(\[\[card\]\]: your 1 entries merge into the "
         r"packaged 39 by 'id' \(1 new: 99\), 40 in all; to replace the packaged list whole add \[replace\] card = true"),
        ("[replace]\ncard = true\n[[card]]\nid = 1\nslots = { red = 2 }\npoints = 2\n",
         r"deck\.count: is 39 but there are 1 \[\[card\]\] entries \(\[\[card\]\]: replace\.card = true, so your 1 "
         r"entries replace the packaged list whole\)"),
        ("[replace]\ncards = true\n", r"replace\.cards: unknown list \(did you mean 'card'\?\) \(allowed: card = true\)"),
        ("[replace]\ncard = 1\n", r"replace\.card: expected true or false, got an integer 1"),
        ("[[card]]\nslots = { red = 2 }\npoints = 2\n", r"card\[39\]\.id: missing"),
        ("[players]\nmin = 3\nmax = 2\n", r"players\.min: 3 is above players\.max = 2"),
        ("[players]\nmax = 5\n", r"gems\.in_play: no gem counts for 5 players"),
        ("[players]\nboats = 11\n", r"players\.boats: 11 is out of range \(allowed: an integer in 1\.\.10\)"),
        ("[grid]\nrows = 4\n", r"grid\.rows: 4 cannot be changed \(allowed: 3 only: the raft is a 3x3 grid\)"),
        ('[edges.north]\nfingers = ["left", "left", "right"]\n', r"edges\.north\.fingers\[1\]: 'left' appears twice"),
        ("[edges.north]\nfinger_offsets = [0.0]\n", r"edges\.north\.finger_offsets: has 1 positions for 3 finger"),
        ("[edges.north]\nopenings = [0, 2, 0]\n", r"edges\.north\.openings\[1\]: 2 is out of range"),
        ("[tilt]\nslide_rate = 1\n", r"tilt: unknown key"),
    ],
    "purramid": [
        ("[sides.A.rows]\nvalue = [[1, 2, 3], [4, 5, 6]]\n", r"sides\.A\.rows\.value: row 1 is 3 units wide"),
        ("[sides.A.rows]\nvalue = [[1, 31, 3]]\n", r"sides\.A\.rows\.value\[0\]\[1\]: 31 is out of range"),
        ("[sides.A.rows]\nvalue = [" + ", ".join(["[" + ", ".join(["1"] * w) + "]" for w in range(11, 0, -1)])
         + "]\n", r"sides\.A\.rows\.value: hold 66 spaces \(allowed: at most 63 spaces"),
        ("dice = 6\n", r"dice\.value: 6 is out of range \(allowed: an integer in 1\.\.5\)"),
        ("yarn_value = -1\n", r"yarn_value\.value: -1 is out of range"),
        ("yarn_value = nan\n", r"yarn_value\.value: nan is out of range"),
        ("deal_4p = [19, 18, 18, 18]\n", r"deal_4p\.value: deals 73 tiles \(allowed: regular_tiles = 72"),
        ("deal_2p = [25, 25]\n", r"sides\.A\.rows\.value: the bottom 2 rows take 21 tiles but the 2-player deal "
                                 r"leaves 22"),
        ("yarn_tokens = 3\n", r'sides\.A\.rows\.value: hold \d+ "8" spaces but there are 3 yarn tokens'),
        ('[sides.A]\nnaem = "x"\n', r"sides\.A\.naem: unknown key \(did you mean 'name'\?\)"),
        ("sides = 5\n", r"sides: expected a table, got an integer 5"),
        ("turn_limit = 0\n", r"turn_limit\.value: 0 is out of range"),
        ("rows = [[1]]\n", r"rows: unknown key"),
    ],
    "pyradice": [
        ("[[dice.colour]]\ncount = 3\n", r"dice\.colour\[5\]\.name: missing"),
        ("[dice.faces]\nvalues = [1, 2, 3, 4, 5, 7]\n", r"dice\.faces\.values: \[1, 2, 3, 4, 5, 7\] cannot be "
                                                        r"changed \(allowed: \[1, 2, 3, 4, 5, 6\] only"),
        ('[[dice.colour]]\nname = "red"\ncount = 1000000000000\n', r"dice\.colour\.red\.count: 1000000000000 is out "
                                                                    r"of range"),
        ("".join(f'[[dice.colour]]\nname = "{c}"\ncount = 9\n' for c in ("red", "yellow", "green", "blue", "black")),
         r"dice\.colour: one copy holds 45 dice \(allowed: at least 47"),
        ('[[dice.colour]]\nname = "brown"\ncount = 1\n', r"is also another colour's letter"),
        ('[setup]\ncards = ["Many", "Height", "Pairs", "Bigg"]\n', r"setup\.cards\[3\]: 'Bigg' is not in the card "
                                                                   r"catalogue \(did you mean 'Big'\?\)"),
        ('[setup]\nskills = ["A3", "A3", "A4", "A5", "A6"]\n', r"setup\.skills\[0\]: 'A3' is not a level-2 skill"),
        ('[setup]\ngoals = ["C6", "D6", "C2", "C3", "D1"]\n', r"setup\.goals: .* use a token twice"),
        ('[setup]\ndiscs = ["red", "yellow", "green", "purple"]\n', r"setup\.discs\[3\]: 'purple' is not a dice "
                                                                    r"colour"),
        ("setup = 3\n", r"setup: expected a table, got an integer 3"),
        ('[[card]]\nname = "Mine"\nkind = "count_tabel"\ntable = [1]\n',
         r"card\.Mine\.kind: 'count_tabel' is not a registered card kind \(did you mean 'count_table'\?\)"),
        ('[[card]]\nname = "Many"\ntabel = [1]\n', r"card\.Many\.tabel: unknown key \(did you mean 'table'\?\)"),
        ('[[card]]\nname = "Big"\nvalues = [7]\n', r"card\.Big\.values\[0\]: 7 is out of range"),
        ('[[goal]]\ncode = "C9"\nkind = "all_same"\n', r"goal\[\d+\]\.code: 'C9' is not allowed \(allowed: C1\.\.C7 "
                                                       r"or D1\.\.D7\)"),
        ('[[skill]]\ncode = "A2"\nlevel = 3\n', r"skill\.A2\.level: 3 differs from the code's digit"),
        ('[[goal]]\ncode = "C1"\nfit = 2\n', r"goal\.C1\.fit: 2 is out of range"),
        ('[[card]]\nname = "Pairs"\nsize = 0\n', r"card\.Pairs\.size: 0 is out of range"),
        ("[discs]\nper_colour = 2\n", r"discs: unknown key \(allowed: dice, skill, goal, card, setup\)"),
    ],
}
CASES = [(g, text, msg) for g, rows in BROKEN.items() for text, msg in rows]


@pytest.mark.parametrize(("game", "text", "message"), CASES,
                         ids=[f"{g}-{i}" for g, rows in BROKEN.items() for i in range(len(rows))])
def test_broken_component_files_get_one_clear_error(tmp_path, game, text, message):
    path = tmp_path / "broken.toml"
    path.write_text(text)
    loader = importlib.import_module(f"pyradice_lab.{game}").load_components
    with pytest.raises(ValueError) as err:
        loader(path)
    assert isinstance(err.value, SchemaError)
    got = str(err.value)
    assert got.startswith(f"{path}: "), got
    assert re.search(message, got), got
    assert "\n" not in got


@pytest.mark.parametrize("game", GAMES)
def test_cli_components_table_dump_refusals_and_bad_files(game, tmp_path, capsys):
    assert main([game, "components"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{game} components (packaged;") and "reconstruction" in out and "meaning" in out
    dump = tmp_path / "c.toml"
    assert main([game, "components", "--dump", str(dump)]) == 0
    assert main([game, "components", "--dump", str(dump)]) == 2             # never overwrites silently
    assert "exists (add --force" in capsys.readouterr().err
    assert main([game, "components", "--dump", str(dump), "--force"]) == 0
    assert main([game, "components", "--dump", str(tmp_path / "no" / "c.toml")]) == 2
    assert main([game, "components", "--components", str(dump)]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("[[[\n")
    capsys.readouterr()
    assert main([game, "components", "--components", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}: line 1" in err and "Traceback" not in err


def test_cli_components_of_a_partial_file(tmp_path, capsys):
    p = tmp_path / "p.toml"
    p.write_text("[water]\ntokens = 20\n")
    assert main(["raft", "components", "--components", str(p)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("water.tokens"))
    assert line.split()[1:3] == ["20", "designer"]
    assert main(["raft", "components", "--components", str(p), "--dump", str(tmp_path / "all.toml")]) == 0
    from pyradice_lab.raft import load_components

    assert load_components(tmp_path / "all.toml") == load_components(p)


def test_data_files_are_the_single_file_form():
    """Each packaged file holds its own top-level sections; no two share one (they merge without conflicts)."""
    for game in GAMES:
        f = fmt(game)
        if f.assemble is not None:       # purramid: game.toml + sides (side_a.toml, side_b.toml)
            continue
        seen = {}
        for name in f.packaged:
            for key in tomllib.loads((Path(f.data_dir) / name).read_text()):
                assert key not in seen, (game, key, name, seen.get(key))
                seen[key] = name
        assert set(seen) == set(f.spec.fields), game


def guide_files():
    """The designer files the guides ask the reader to write: every ``toml`` block whose first line is
    ``# NAME.toml`` (parsed by tests/test_docs_blocks.py), with the game it is for (the page's game, or on a
    page about all games the one game whose title the block's first line names)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_docs_blocks import ALL

    from pyradice_lab.engine import registry

    titles = {name: spec.title for name, spec in registry.games().items()}
    out = []
    for b in ALL:
        if b.file_name is None or b.page.parent.name != "guide":
            continue
        game = b.page.stem if b.page.stem in titles else None
        if game is None:
            named = [g for g, t in titles.items() if t.lower() in b.code.splitlines()[0].lower()]
            assert len(named) == 1, f"{b.where}: the first line of {b.file_name} must name its game, one of {titles}"
            game = named[0]
        out.append(pytest.param(game, b.code, id=f"{b.page.stem}:{b.line}:{b.file_name}"))
    return out


GUIDE_FILES = guide_files()

#: what some guide files say they do, checked beyond "loads and is marked as the designer's" (keyed by the
#: block's first line; a check whose block is gone fails test_every_game_has_a_guide_designer_file)
GUIDE_FILE_CHECKS = {
    "# mine.toml: tile 7 worth 8/4": lambda c: c.tile(7).values == (8, 4) and dict(c.blue)["move"] == 1,
    "# mine.toml: 4 black gems at 3 players": lambda c: c.gems.in_play(3).tolist() == [7, 7, 7, 4]
    and c.rules.flag_depth[3] == 18,
    "# mine.toml: a richer Many, a new card": lambda c: c.cards["Ends"].params == {"values": (1, 6), "points": 1}
    and c.default_setup["cards"][3] == "Ends" and c.cards["Ends"].source == "designer",
    "# mine.toml: a third side \"C\"": lambda c: c.layout("C").capacity == 78 and c.config.yarn_value == 0.5
    and c.layout("C").source == "designer",
}


def check_guide_file(game, text, folder):
    path = folder / "mine.toml"
    path.write_text(text)
    comp = importlib.import_module(f"pyradice_lab.{game}").load_components(path)  # SchemaError when invalid
    changed = {k for k, v, src, _ in fmt(game).rows(comp.document) if src == "designer"}
    assert changed, "nothing in the file is marked as the designer's"  # what the designer gave is marked
    assert all(src != "designer" for *_, src, _ in fmt(game).rows(fmt(game).default().document))
    for head, check in GUIDE_FILE_CHECKS.items():
        if text.startswith(head):
            assert check(comp), head
    return comp


def test_every_game_has_a_guide_designer_file():
    assert {p.values[0] for p in GUIDE_FILES} >= set(GAMES)
    assert all(any(p.values[1].startswith(h) for p in GUIDE_FILES) for h in GUIDE_FILE_CHECKS), "a stale check"


@pytest.mark.parametrize(("game", "text"), GUIDE_FILES)
def test_the_guides_partial_designer_files_load(game, text, tmp_path):
    check_guide_file(game, text, tmp_path)


def test_an_invalid_guide_file_fails_the_check(tmp_path):
    game, text = next(p.values for p in GUIDE_FILES if p.values[0] == "meerkat")
    with pytest.raises(SchemaError, match="did you mean 'values'"):
        check_guide_file(game, text.replace("values =", "valus ="), tmp_path)
    with pytest.raises(SchemaError):
        check_guide_file(game, text + "\n[[tile]]\nnumber = 99\nvalues = [1, 1]\n", tmp_path)

