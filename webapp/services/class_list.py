"""The teacher's class list as the app uses it: names pasted in, one join link each, and a
browser joining by its link (no gradio). Storage and the rules of a member are the gradebook's
(gradebook.roster); what a member gets when the school's network is busy is the serving
wing's (webapp.serving.limits.origin_of, webapp.serving.who.vouched_for).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit, urlunsplit

from gradebook import ANONYMOUS, Gradebook, Refused, clean_learner
from gradebook import identity as ids
from gradebook.roster import MAX_MEMBERS, Member

JOIN_KEY = "join"  # the query key of a join link (lesson links leave it alone)
MAX_NAMES = 200  # names one paste may add (a class, or a few)
MAX_TEXT_CHARS = 20_000  # the paste box's limit, checked again here


@dataclass(frozen=True)
class Problem:
    """A pasted line that was not added: its number (from 1), and why as a catalogue key with
    fields, or a message already in both languages (a name the gradebook refused)."""

    line: int
    key: str
    fields: dict = field(default_factory=dict)
    message: dict[str, str] | None = None


@dataclass(frozen=True)
class Issued:
    """A name of a paste and what happened to it: "added", "kept" (on the list already, its
    link unchanged) or "renewed" (a new link; the old one stopped working)."""

    member: Member
    what: str


def parse_names(text: str | None) -> tuple[list[str], list[Problem]]:
    """The names of a paste, one per line (a spreadsheet's first column: the text before a
    tab), cleaned as learner names are; and the lines that were not names. Empty lines are
    skipped; a name whose fold repeats an earlier line's is a problem (two learners need two
    names the teacher can tell apart)."""
    names: list[str] = []
    problems: list[Problem] = []
    if not isinstance(text, str) or not text.strip():
        return [], [Problem(0, "roster.empty")]
    if len(text) > MAX_TEXT_CHARS:
        return [], [Problem(0, "roster.too_long", {"n": MAX_TEXT_CHARS})]
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        raw = line.split("\t", 1)[0].strip()
        if not raw:
            continue
        try:
            name = clean_learner(raw)
        except Refused as err:
            problems.append(Problem(number, "roster.bad_name", message=err.message))
            continue
        folded = ids.fold(name)
        if name == ANONYMOUS or not folded:
            problems.append(Problem(number, "roster.no_letters", {"name": raw[:40]}))
            continue
        if folded in seen:
            problems.append(Problem(number, "roster.twice", {"name": name, "first": seen[folded]}))
            continue
        seen[folded] = number
        names.append(name)
    if len(names) > MAX_NAMES:
        return [], [Problem(0, "roster.too_many", {"n": MAX_NAMES})]
    return names, problems


def add(book: Gradebook, names: list[str],
        renew: bool = False) -> tuple[list[Issued], list[Problem]]:
    """Each name on the class list (a new member with a new join code, or the one already
    there; ``renew``: with a new code, the browsers that joined with the old one leaving it);
    and the names that did not fit the list."""
    issued: list[Issued] = []
    problems: list[Problem] = []
    for name in names:
        try:
            member, what = book.add_member(name, ids.new_recovery_code(), renew=renew)
        except ValueError:  # the list is full
            problems.append(Problem(0, "roster.full", {"n": MAX_MEMBERS, "name": name}))
            break
        issued.append(Issued(member, what))
    return issued, problems


def join_link(page_url: str | None, code: str) -> str:
    """The page's own address (what the teacher's browser shows: a Space's, a proxy's) with
    only ``?join=<code>``; the code without its dashes, so a chat app keeps the link whole."""
    parts = urlsplit(str(page_url or ""))
    raw = ids.normalise_recovery_code(code) or ""
    if parts.scheme not in ("http", "https"):
        return "?" + urlencode({JOIN_KEY: raw})
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode({JOIN_KEY: raw}), ""))


def links_text(members: list[Member], page_url: str | None) -> str:
    """One line per name, "name<TAB>link": pasted into a spreadsheet, two columns."""
    return "\n".join(f"{m.name}\t{join_link(page_url, m.code)}" for m in members)


def join(book: Gradebook, browser_key: str, code: str | None) -> Member | None:
    """Link the browser whose key this is to the member whose current join code ``code`` is;
    the member, or None (no such code, or the name is no longer listed). The caller limits
    the tries (a code has 100 bits; the limit keeps guessing from costing the server)."""
    raw = ids.normalise_recovery_code(code)
    if raw is None or not ids.valid_browser_key(browser_key):
        return None
    learner_id = book.recovered_learner(ids.recovery_hash(raw))
    name = book.member_name(learner_id) if learner_id else None
    if name is None:  # a learner's own recovery code is not a class link
        return None
    linked = book.link_browser_by_code(ids.key_hash(browser_key), ids.recovery_hash(raw))
    if linked != learner_id:  # a new link replaced the code meanwhile: nothing linked to it
        return None
    return Member(learner_id, name, "", "")
