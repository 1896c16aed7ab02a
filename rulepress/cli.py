"""The `rulepress` command line: parses options and calls the command modules."""

from __future__ import annotations

import gc
import os
import re
import sys
from pathlib import Path

import click

from rulepress import __version__
from rulepress.errors import RulepressError, printable

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
DEFAULT_COMPENDIUM = "compendium"

COMPENDIUM_HELP = "Compendium folder (one folder per ruleset, or a single ruleset folder)."


class FilePath(click.Path):
    """A path that may not be empty: `Path("")` is the working folder, so an unset shell
    variable (`rulepress validate "$DIR"`) would check, or build into, whatever folder the
    command runs in."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path", param, ctx)
        return super().convert(value, param, ctx)


def compendium_argument(function):
    return click.argument("compendium", default=DEFAULT_COMPENDIUM, type=FilePath(path_type=Path))(
        function
    )


def no_cache_option(function):
    return click.option(
        "--no-cache",
        is_flag=True,
        help="Reuse nothing from earlier runs: parse every file again and render every "
        "output afresh (the caches are in .rulepress-cache/, or $RULEPRESS_CACHE_DIR).",
    )(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulepress")
def cli() -> None:
    """Turn tabletop rules into validated data and publish it.

    Reads the canonical YAML compendium, checks it, and renders it to every output.
    Exit codes: 0 clean (or warnings only), 1 findings that are errors, 2 usage or
    environment problems, 3 an internal error (a bug in rulepress: please report it).
    """


@cli.command("validate")
@compendium_argument
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text for people, json for tools, github for annotations.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@no_cache_option
def validate_command(compendium: Path, fmt: str, strict: bool, no_cache: bool) -> None:
    """Check COMPENDIUM (default ./compendium) and print `path:line:col: level CODE: message`
    for each finding, errors first."""
    from rulepress.commands.validate import format_findings
    from rulepress.validation import validate

    validation = validate(compendium, strict=strict, cache=not no_cache)
    click.echo(format_findings(validation, fmt, relative_to=Path.cwd()))
    sys.exit(EXIT_CLEAN if validation.ok else EXIT_FINDINGS)


@cli.command("build")
@compendium_argument
@click.option(
    "--out",
    type=FilePath(path_type=Path),
    default=Path("dist"),
    show_default=True,
    help="Output folder; each target writes into its own subfolder.",
)
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="NAME",
    help="Target to build (repeatable): foundry, markdown, site, json; default: every target.",
)
@click.option(
    "--foundry-version",
    type=click.Choice(["12", "13"]),
    default="13",
    show_default=True,
    help="Foundry VTT version the module targets (picks the TableResult shape).",
)
@click.option(
    "--templates",
    type=FilePath(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="Folder of templates (Markdown sections, Foundry HTML) that override the shipped "
    "ones by name.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Build even when nothing the last identical build read or wrote has changed, "
    "and render every output afresh.",
)
@no_cache_option
def build_command(
    compendium: Path,
    out: Path,
    targets: tuple[str, ...],
    foundry_version: str,
    templates: Path | None,
    force: bool,
    no_cache: bool,
) -> None:
    """Validate COMPENDIUM, then write every output into OUT. Nothing is written when
    validation finds errors; a target's previous output is replaced only when its new
    output is complete. Run again with nothing changed, it only says so."""
    from rulepress import build_stamp
    from rulepress.commands.build import build
    from rulepress.commands.validate import format_findings, summary
    from rulepress.exporters.site.pages import SITE
    from rulepress.validation import Validation

    options = {"foundry_version": int(foundry_version), "templates": templates}
    inputs = build_stamp.snapshot(
        str(compendium), [str(SITE), *([str(templates)] * bool(templates))]
    )
    # a forced build stands for the same build without --force
    argv = [arg for arg in sys.argv[1:] if not (force and arg == "--force")]

    def stamp(validation: Validation, written: list[Path]) -> None:
        report = [f"validated: {summary(validation)}"]
        report += [
            f"up to date: {path} (nothing changed; --force builds again)" for path in written
        ]
        build_stamp.record(argv, inputs, [str(path) for path in written], report)

    validation, written = build(
        compendium,
        out,
        targets,
        options,
        cache=not no_cache,
        fresh=force,
        after_writing=None if no_cache else stamp,
    )
    if not validation.ok:
        click.echo(format_findings(validation, "text", relative_to=Path.cwd()), err=True)
        click.echo("build stopped: fix the errors above; nothing was written", err=True)
        sys.exit(EXIT_FINDINGS)
    click.echo(f"validated: {summary(validation)}")
    for path in written:
        click.echo(f"wrote {path}")


@cli.command("fmt")
@click.argument("path", default=DEFAULT_COMPENDIUM, type=FilePath(path_type=Path))
@click.option("--check", is_flag=True, help="Change nothing; exit 1 if a file is not canonical.")
def fmt_command(path: Path, check: bool) -> None:
    """Rewrite the YAML under PATH (default ./compendium) in canonical form, keeping
    comments. With --check, list the files that would change and exit 1 if any would.
    Never writes through a symbolic link: a link to a file inside PATH is skipped, one
    leading out of it is refused."""
    from rulepress.commands.fmt import format_paths

    result = format_paths(path, check=check)
    for file, reason in result.failed:
        click.echo(f"{printable(str(file))}: cannot format: {printable(reason)}", err=True)
    for file in result.changed:
        click.echo(f"{'would reformat' if check else 'reformatted'} {printable(str(file))}")
    for file, reason in result.skipped:
        click.echo(f"{printable(str(file))}: skipped: {printable(reason)}")
    click.echo(
        f"{len(result.changed)} {'to reformat' if check else 'reformatted'}, "
        f"{len(result.unchanged)} already canonical, {len(result.failed)} failed"
    )
    sys.exit(EXIT_FINDINGS if result.failed or (check and result.changed) else EXIT_CLEAN)


@cli.command("schema")
@click.option(
    "--out",
    type=FilePath(path_type=Path, file_okay=False),
    default=Path("schemas"),
    show_default=True,
    help="Folder to write the schemas into.",
)
def schema_command(out: Path) -> None:
    """Write a JSON Schema per document kind (and compendium.schema.json for any kind),
    with the models' field descriptions, for editors and other tools."""
    from rulepress.commands.schema import write_schemas

    for path in write_schemas(out):
        click.echo(f"wrote {path}")


@cli.command("diff")
@click.argument("old")
@click.argument("new", default="compendium")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
    help="markdown gives a pull-request comment; json is for tools.",
)
@click.option(
    "--path",
    "compendium_path",
    default=DEFAULT_COMPENDIUM,
    show_default=True,
    help="Where the compendium is inside the repository, for git revisions.",
)
def diff_command(old: str, new: str, fmt: str, compendium_path: str) -> None:
    """Say what changed in the rules between OLD and NEW: compendium folders or git
    revisions (HEAD~1, main). Changed cells, renames, new and removed documents, and the
    computed figures (odds) a change moves."""
    from rulepress.commands.diff import format_changes
    from rulepress.history import compare, load_side

    changes = compare(load_side(old, compendium_path), load_side(new, compendium_path))
    click.echo(format_changes(changes, fmt, old, new))


@cli.group("new")
def new_group() -> None:
    """Write a valid skeleton document in the right folder."""


def _compendium_option(function):
    return click.option(
        "--compendium",
        type=FilePath(path_type=Path, file_okay=False),
        default=Path(DEFAULT_COMPENDIUM),
        show_default=True,
        help=COMPENDIUM_HELP,
    )(function)


@new_group.command("weapon")
@click.argument("name")
@click.option("--section", required=True, help="Weapon section id (pistols, shotguns...).")
@click.option("--tier", type=click.IntRange(1, 10), default=1, show_default=True)
@click.option("--ruleset", "ruleset_id", default="iris", show_default=True)
@_compendium_option
def new_weapon_command(name, section, tier, ruleset_id, compendium):
    """A draft weapon profile NAME, to fill in with its stats and AP table."""
    from rulepress.commands.new import new_weapon

    click.echo(f"wrote {new_weapon(compendium, ruleset_id, name, section, tier)}")


@new_group.command("skill")
@click.argument("name")
@click.option(
    "--category", type=click.Choice(["academic", "weapon", "specialist", "talent"]), required=True
)
@click.option("--traits", required=True, help="The two trait ids: agility,acuity.")
@click.option("--ruleset", "ruleset_id", default="iris", show_default=True)
@_compendium_option
def new_skill_command(name, category, traits, ruleset_id, compendium):
    """A skill NAME with its category and two traits."""
    from rulepress.commands.new import new_skill

    trait_ids = [t.strip() for t in traits.split(",") if t.strip()]
    click.echo(f"wrote {new_skill(compendium, ruleset_id, name, category, trait_ids)}")


@new_group.command("tc-source")
@click.argument("name")
@click.option("--tc", type=int, required=True, help="TCs it adds (negative: reduces).")
@click.option("--ruleset", "ruleset_id", default="t2k-cuf", show_default=True)
@_compendium_option
def new_tc_source_command(name, tc, ruleset_id, compendium):
    """A threat-condition source NAME that adds (or with a negative --tc reduces) TCs."""
    from rulepress.commands.new import new_tc_source

    click.echo(f"wrote {new_tc_source(compendium, ruleset_id, name, tc)}")


@cli.command("serve")
@compendium_argument
@click.option(
    "-a",
    "--address",
    default="127.0.0.1:8000",
    show_default=True,
    help="Address to serve the preview on.",
)
def serve_command(compendium: Path, address: str) -> None:
    """Preview the rules site with live reload: edit COMPENDIUM and the browser updates."""
    from rulepress.commands.serve import serve

    if not compendium.is_dir():
        raise RulepressError(f"compendium folder not found: {compendium}")
    sys.exit(serve(compendium, address))


@cli.group("import")
def import_group() -> None:
    """Turn other formats into canonical compendium YAML."""


@import_group.command("wiki")
@click.argument("page", type=FilePath(path_type=Path, dir_okay=False))
@click.option(
    "--ruleset",
    "ruleset_folder",
    type=FilePath(path_type=Path, file_okay=False),
    default=Path(DEFAULT_COMPENDIUM) / "iris",
    show_default=True,
    help="Ruleset folder to write the weapon files into.",
)
def import_wiki_command(page: Path, ruleset_folder: Path) -> None:
    """Import weapon profiles from a quick-reference wiki PAGE (the IRIS text format:
    section headings, "Weapon Profile - NAME (Tier N)" headers, a stats line and an AP
    table) as one canonical YAML file per weapon, plus one per section."""
    from rulepress.commands.import_wiki import import_wiki

    for path in import_wiki(page, ruleset_folder):
        click.echo(f"wrote {path}")


class IntList(click.ParamType):
    """A comma-separated list of whole numbers: `1,2,6`."""

    name = "N,N,..."

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        parts = [part.strip() for part in str(value).split(",") if part.strip()]
        # ASCII digits only (int() would also read '٣' and '1_000'), and not a thousand of them
        if not all(re.fullmatch(r"[+-]?[0-9]{1,9}", part) for part in parts):
            self.fail(
                f"{value!r} is not a comma-separated list of whole numbers (of at most 9 digits)",
                param,
                ctx,
            )
        return [int(part) for part in parts]


STEP_DIE = click.Choice(["d6", "d8", "d10", "d12"])
READING = click.Choice(["neither-one-nor-success", "every-non-success"])


def ruleset_options(default_ruleset: str):
    def decorate(function):
        function = click.option("--json", "as_json", is_flag=True, help="Print JSON.")(function)
        function = click.option(
            "--ruleset",
            "ruleset_id",
            default=default_ruleset,
            show_default=True,
            help="Ruleset id in the compendium.",
        )(function)
        return click.option(
            "--compendium",
            type=FilePath(path_type=Path),
            default=Path(DEFAULT_COMPENDIUM),
            show_default=True,
            help=COMPENDIUM_HELP,
        )(function)

    return decorate


def load_ruleset(compendium: Path, ruleset_id: str):
    from rulepress.api import InvalidCompendium, load

    try:
        return load(compendium).ruleset(ruleset_id)
    except InvalidCompendium as exc:
        raise RulepressError(f"{exc}; run `rulepress validate` for every finding") from None
    except KeyError as exc:
        raise RulepressError(exc.args[0]) from None


def emit(data: dict, as_json: bool, text: str) -> None:
    import json

    click.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def _lines(data: dict) -> str:
    return "\n".join(f"{key}: {value}" for key, value in data.items() if key != "ruleset")


@cli.group("roll")
def roll_group() -> None:
    """Resolve a test: give the faces rolled, or a --seed to roll them."""


@roll_group.command("iris")
# 60: SkillTest's MAX_RANK (not imported here, to keep `--help` quick)
@click.option("--rank", type=click.IntRange(0, 60), required=True, help="Skill rank (dice rolled).")
@click.option("--traits", type=IntList(), default="", help="The skill's two trait ranks: 5,3.")
@click.option("--faces", type=IntList(), default=None, help="The d6 faces rolled.")
@click.option("--seed", type=int, default=None, help="Roll with this seed instead.")
@ruleset_options("iris")
def roll_iris(rank, traits, faces, seed, compendium, ruleset_id, as_json):
    """An IRIS skill test: AP from the dice plus the higher trait."""
    from rulepress.commands.roll import iris_skill_test

    data = iris_skill_test(load_ruleset(compendium, ruleset_id), rank, traits, faces, seed)
    emit(data, as_json, _lines(data))


@roll_group.command("t2k4e")
@click.option("--attribute", "attribute_die", type=STEP_DIE, required=True, help="Attribute die.")
@click.option("--skill", "skill_die", type=STEP_DIE, default=None, help="Skill die, if any.")
@click.option(
    "--modifier",
    "modifiers",
    type=click.IntRange(-10, 10),
    multiple=True,
    help="A bonus or penalty, -10 to +10 (repeatable; the net shifts the dice at most to "
    "the rules' highest or lowest pool).",
)
@click.option(
    "--helpers", type=click.IntRange(0, 20), default=0, help="Characters helping (group roll)."
)
@click.option(
    "--faces", type=IntList(), default=None, help="The faces rolled, attribute die first."
)
@click.option("--push", is_flag=True, help="Push the roll.")
@click.option("--push-faces", type=IntList(), default=None, help="Faces of the re-rolled dice.")
@click.option(
    "--for",
    "attribute",
    type=click.Choice(["STR", "AGL", "INT", "EMP"]),
    default=None,
    help="The attribute rolled, to price the push.",
)
@click.option("--gear", is_flag=True, help="The push uses a piece of gear.")
@click.option("--reading", type=READING, default=None, help="Which dice a push re-rolls.")
@click.option("--seed", type=int, default=None, help="Roll with this seed.")
@ruleset_options("t2k4e")
def roll_t2k4e(
    attribute_die,
    skill_die,
    modifiers,
    helpers,
    faces,
    push,
    push_faces,
    attribute,
    gear,
    reading,
    seed,
    compendium,
    ruleset_id,
    as_json,
):
    """A Twilight: 2000 4e roll with modifiers, helpers and a push."""
    from rulepress.commands.roll import t2k4e_roll

    pool = [attribute_die, *([skill_die] if skill_die else [])]
    data = t2k4e_roll(
        load_ruleset(compendium, ruleset_id),
        pool,
        modifiers,
        helpers,
        faces,
        push,
        push_faces,
        attribute,
        gear,
        reading,
        seed,
    )
    emit(data, as_json, _lines(data))


@roll_group.command("cuf")
@click.option("--cuf", type=click.IntRange(0, 40), required=True, help="The character's CUF.")
@click.option("--willpower", type=click.IntRange(0, 40), required=True, help="Willpower.")
@click.option(
    "--tcs", type=click.IntRange(0, 500), required=True, help="Threat conditions this round."
)
@click.option("--d20", type=click.IntRange(1, 20), default=None, help="The check's d20 roll.")
@click.option("--seed", type=int, default=None, help="Roll with this seed.")
@ruleset_options("t2k-cuf")
def roll_cuf(cuf, willpower, tcs, d20, seed, compendium, ruleset_id, as_json):
    """A CUF threat check: the state the TCs reach and the check it calls for."""
    from rulepress.commands.roll import cuf_check

    data = cuf_check(load_ruleset(compendium, ruleset_id), cuf, willpower, tcs, d20, seed)
    emit(data, as_json, _lines(data))


@roll_group.command("cool")
@click.argument("kind", type=click.Choice(["shock", "fear"]))
@click.option("--cool", type=click.IntRange(0, 100), required=True, help="The character's Cool.")
@click.option(
    "--penalty", type=click.IntRange(0, 100), default=0, help="Wound penalty (damage taken)."
)
@click.option(
    "--roll", "roll_", type=click.IntRange(1, 100), default=None, help="The percentile roll."
)
@click.option("--seed", type=int, default=None, help="Roll with this seed.")
@ruleset_options("cool")
def roll_cool(kind, cool, penalty, roll_, seed, compendium, ruleset_id, as_json):
    """A Cool shock or fear roll."""
    from rulepress.commands.roll import cool_roll

    data = cool_roll(load_ruleset(compendium, ruleset_id), kind, cool, penalty, roll_, seed)
    emit(data, as_json, _lines(data))


@cli.group("odds")
def odds_group() -> None:
    """Exact odds computed from the rules."""


@odds_group.command("iris")
@click.option(
    "--rank",
    type=click.IntRange(0, 60),
    default=None,
    help="One rank's full distribution; default: the P(AP >= k) table by rank.",
)
@click.option("--max-rank", type=click.IntRange(1, 60), default=10, show_default=True)
@click.option(
    "--up-to",
    type=click.IntRange(1, 120),
    default=20,
    show_default=True,
    help="Largest k in the table.",
)
@click.option("--trait-bonus", type=click.IntRange(0, 60), default=0, show_default=True)
@ruleset_options("iris")
def odds_iris(rank, max_rank, up_to, trait_bonus, compendium, ruleset_id, as_json):
    """IRIS skill test odds: P(AP >= k) by rank, or one rank's distribution."""
    from rulepress.commands import odds

    ruleset = load_ruleset(compendium, ruleset_id)
    if rank is not None:
        data = odds.iris_distribution(ruleset, rank, trait_bonus)
        text = odds.format_distribution(
            [(f"{o['ap']} AP", o["exactly"]) for o in data["outcomes"]],
            f"rank {rank}, trait bonus {trait_bonus}: P(AP = n)",
        )
    else:
        data = odds.iris_table(ruleset, range(1, max_rank + 1), up_to, trait_bonus)
        text = odds.format_iris_table(data)
    emit(data, as_json, text)


@odds_group.command("t2k4e")
@click.option(
    "--attribute",
    "attribute_die",
    type=STEP_DIE,
    default=None,
    help="With --skill: one pool's full distribution; default: the odds tables.",
)
@click.option("--skill", "skill_die", type=STEP_DIE, default=None)
@click.option(
    "--reading",
    type=READING,
    default=None,
    help="Which dice a push re-rolls (default: the rule text's).",
)
@ruleset_options("t2k4e")
def odds_t2k4e(attribute_die, skill_die, reading, compendium, ruleset_id, as_json):
    """T2K4e success odds: the printed tables beside the computed ones, or one pool."""
    from rulepress.commands import odds

    ruleset = load_ruleset(compendium, ruleset_id)
    if attribute_die:
        pool = [attribute_die, *([skill_die] if skill_die else [])]
        data = odds.t2k4e_pool(ruleset, pool, reading)
        text = "\n\n".join(
            odds.format_distribution(
                [(f"{s['successes']}", s["chance"]) for s in data[name]["successes"]],
                f"{'+'.join(pool)} {name} ({data['reading']}): successes",
            )
            for name in ("initial", "pushed")
        )
    else:
        data = odds.t2k4e_tables(ruleset, reading)
        text = odds.format_t2k4e_tables(data)
    emit(data, as_json, text)


def pause_the_collector() -> None:
    """Switch Python's cycle collector off for the rest of this process. A command is one
    pass over the data and then the process ends; loading makes millions of objects and
    no reference cycles, which the collector would scan again and again (a fifth of
    loading 10,000 weapons). Process-wide, so only the command's own process does it,
    never a library call; `serve`'s rebuilds run in mkdocs's process, which collects."""
    gc.disable()


def main() -> None:
    pause_the_collector()
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except RulepressError as exc:
        click.echo(f"error: {printable(str(exc))}", err=True)  # it may name a file of the data
        sys.exit(EXIT_USAGE)
    except Exception as exc:  # a bug in rulepress: say so in one line, keep the trace opt-in
        if os.environ.get("RULEPRESS_DEBUG"):
            raise
        click.echo(
            f"internal error: {exc!r} (set RULEPRESS_DEBUG=1 for the traceback, "
            "and please report it)",
            err=True,
        )
        sys.exit(EXIT_INTERNAL)
