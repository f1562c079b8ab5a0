"""Where a text sends its reader: the place reader of where-questions (`places`, `places_for`).

A help centre's where-question is answered by a place in the app, a channel or a location; an
encyclopaedic one by a name a preposition puts in a place. `answer.sentences` reads these spans
as the typed answer of a place question and `answer.short` shows the nearest one in bold.
"""

from __future__ import annotations

import functools
import re

from raglab.text.analyzer import analyze
from raglab.text.answertypes import YA, both_nukta_forms, cue_text, typed_spans

# Where a help centre sends its reader: a place in the app, a channel or a location ("in your
# transaction history", "on the Verification status screen", "visit a customer care centre",
# "অ্যাপের লেনদেন তালিকায়", "কাস্টমার কেয়ার সেন্টারে", "বাংলাদেশ ব্যাংকে"). A name is a place only
# where a preposition puts it ("born in Birkdale", "a region of Bosnia"): "The Government of
# Bangladesh rewards …" names who, not where. Explicit character classes, never \b or \w (see `answertypes`).
# A Bangla place's words before its noun name it ("নিশ্চিতকরণ এসএমএসে": in the confirmation SMS); a
# relative word or a conjunction opens the clause around it instead ("যা নিশ্চিতকরণ এসএমএসে আছে":
# which is in the confirmation SMS), and a short answer that starts with it reads as a fragment.
# Only a noun or a genitive names it: a verb's form before it ("খুলে লগইন পাতায়": opening the login page;
# "সফল হলে স্ক্রিনে": when it succeeds, on screen; "করতে অ্যাপের মেনু থেকে"), a postposition ("আগে"), a
# pronoun, a determiner or a particle ("কোনো এজেন্ট অ্যাপে": no agent … in the app) is the clause around the
# place, and in bold it garbles the place. A word ending in the vowel sign e (ে, েই) is such a form: a
# conjunctive (খুলে), a conditional (হলে, হলেই), an infinitive (করতে), a postposition (আগে) or another locative.
# A store is a shop or the app store an app comes from ("অ্যাপ স্টোর থেকে", "from the Play Store"), read whole ("to store" is a verb).
_BN_LINKS = "(?:যা|যে|যেটি|যেটা|যেখানে|এবং|ও|বা|আর|অথবা|তবে|কিন্তু)"
_BN_CLAUSE = "(?:আপনি|আমি|তিনি|আমরা|কোনো|কোন|যেকোনো|এই|সেই|ওই|না|কি|নাকি|অবশ্যই|সরাসরি|শুধু|শুধুমাত্র)"
_PLACE_NOUNS_EN = ("(?:app |play )?store|app|screen|menu|tab|section|page|history|statement|sms|messages?|inbox|centre|center|point|branch"
                   "|office|website|helpline|hotline|counter|booth|shop|outlet|agent|bank|settings|e-?mail|call centre")
_PLACE_EN = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:in|on|at|from|to(?! store)|into|via|through|visit|under) (?:[A-Za-z'\"\u2019-]+ ){0,5}?"
                       f"(?:{_PLACE_NOUNS_EN})(?![A-Za-z])", re.IGNORECASE)
_PLACE_BN = re.compile(f"(?<![\u0980-\u09ff])(?:(?!{_BN_LINKS} |{_BN_CLAUSE} |[\u0980-\u09ff]{{2,}}\u09c7ই? )[\u0980-\u09ff]+ ){{0,2}}?(?:অ্যাপ|স্টোর|এসএমএস|তালিকা|অংশ|মেনু|স্ক্রিন|পেজ|পাতা|সেন্টার|প{YA}েন্ট|শাখা"
                       f"|অফিস|ও{YA}েবসাইট|ব্যাংক|দোকান|বুথ|ইনবক্স|এজেন্ট|হেল্পলাইন|হটলাইন|ইমেইল)(?:ে|তে|{YA}|এ| থেকে)(?![\u0980-\u09ff])")
_LOCATED = re.compile(r"(?:^|[^A-Za-z])(?:in|at|near|from|to|on|into|visit|of) $", re.IGNORECASE)
# "in" and "to" after a verb they belong to ("Log in to the app with your PIN", "sign in to", "logged
# in on") say what one does, not where: "in to the app" in bold answers no where-question.
_PARTICLE_BEFORE = re.compile(r"(?:^|[^A-Za-z])(?:log|logs|logged|logging|sign|signs|signed|signing)(?: in)? $", re.IGNORECASE)
# So do "on" and "off" after "turn" or "switch" before a name: "Turn on Fingerprint login." names what one turns
# on, not where ("Fingerprint" in bold answered "where do I turn it on?").
_NAME_PARTICLE = re.compile(r"(?:^|[^A-Za-z])(?:(?:turn|turns|turned|turning|switch|switches|switched|switching) on"
                            r"|(?:log|logs|logged|logging|sign|signs|signed|signing) (?:in|into|on|to)) $", re.IGNORECASE)
# A place in the app goes on along a path: "Go to Settings and then Security", 'Open "Settings", then "Notifications"'.
# The next step's name (capitalised or quoted) belongs to the place, up to where the sentence or the path ends.
_PATH_ON = re.compile(r"(?:,? and then|, then| then| >) (?:(?:tap|choose|select|open) )?"
                      r"(?:\"[^\"\n]{1,40}\"|[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*){0,2})(?=[.,;:!?)]|$| and | then )")


@functools.lru_cache(maxsize=50_000)
def places(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of the places `text` sends its reader to (see above), in text order; names
    that a preposition puts in a place count too.

    >>> s = "The incentive appears as its own line in your transaction history."
    >>> [s[a:b] for a, b in places(s)]
    ['in your transaction history']
    >>> s = "লেনদেন নম্বর (ট্রানজেকশন আইডি), যা নিশ্চিতকরণ এসএমএসে আছে।"
    >>> [s[a:b] for a, b in places(s)]
    ['নিশ্চিতকরণ এসএমএসে']
    >>> places("The Government of Bangladesh rewards people who send money home through legal channels.")
    ()
    >>> places("Log in to the app with your PIN."), places("You can log in to the app with your PIN or with a fingerprint.")
    ((), ())
    >>> s = "Sign in and then go to the Rewards screen."
    >>> [s[a:b] for a, b in places(s)]
    ['to the Rewards screen']
    >>> s = "Go to Settings and then Security."
    >>> [s[a:b] for a, b in places(s)], places("Turn on Fingerprint login.")
    (['to Settings and then Security'], ())
    """
    found = [(m.start(), _path_end(text, m.end())) for m in _PLACE_EN.finditer(text) if not _PARTICLE_BEFORE.search(text, 0, m.start())] \
        + [(m.start(), m.end()) for m in _PLACE_BN.finditer(text)]
    for s in typed_spans(text):
        if s.type == "name" and _LOCATED.search(text, max(0, s.start - 8), s.start) \
                and not _NAME_PARTICLE.search(text, max(0, s.start - 16), s.start):
            found.append((s.start, _path_end(text, s.end)))
    return _apart(found)


def _path_end(text: str, end: int) -> int:
    """The end of the path a place at text[..end] goes on along (`_PATH_ON`), or `end`."""
    m = _PATH_ON.match(text, end)
    while m is not None:
        end = m.end()
        m = _PATH_ON.match(text, end)
    return end


def _apart(found: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The spans of `found` in text order, each overlapping one after the first (the longer) left out."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(found, key=lambda ab: (ab[0], -ab[1])):
        if not out or a >= out[-1][1]:
            out.append((a, b))
    return tuple(out)


# A question asking where something goes ("সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?", "Where is the profit paid?")
# asks a destination: "paid to your Shapla Pay wallet" or "ওয়ালেটে জমা হয়" answers it, and "from the Shapla Pay app"
# or "অ্যাপের মেনু থেকে" (sources) do not. A wallet or an account is a place only there, as money's destination:
# as a place noun everywhere it cost other where-questions, and a phone's "মূল ব্যালেন্সে যোগ হয়" is no wallet.
# "to" names a destination before a determiner or a name ("to your wallet"), not before a verb ("to open").
_GOES = re.compile(both_nukta_forms(
    " where (?:[^ ]+ ){0,8}?(?:go|goes|went|gone|end up|ends up|sent|paid|credited|deposited|transferred|moved|returned|refunded) "
    "| কোথায় (?:চলে )?(?:যায়|যাবে|যাচ্ছে|জমা|ঢোকে|ঢুকবে|আসে|আসবে)| (?:kothay|kothai|kothae) (?:chole )?(?:jay|jabe|jacche|joma|dhuke|dhukbe|ashe|ase|ashbe|asbe) "))
_TO_EN = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:[Tt]o|[Ii]nto) (?:your|my|the|their|his|her|its|our|this|that|an?|another|other|any|each|every|[A-Z][A-Za-z'\u2019-]*) (?:[A-Za-z'\u2019-]+ ){0,3}?(?:[Ww]allet|[Aa]ccount)s?(?![A-Za-z])")
_TO_BN = re.compile(f"(?<![\u0980-\u09ff])(?:(?!{_BN_LINKS} )[\u0980-\u09ff]+ ){{0,2}}?(?:ও{YA}ালেট|(?:অ্যা|এ্যা|এ|আ)কাউন্ট)"
                    f"(?:ে|এ|তে)(?= (?:জমা|যোগ|চলে|ফেরত|ঢো|ঢু|যা{YA}|পাঠানো))")
_FROM = re.compile("from ", re.IGNORECASE)


# A place that a participle ties to the noun after it ("অ্যাপে দেখানো চার্জের চেয়ে": than the charge shown
# in the app) or before it ("the fee shown in the app") says where that thing is seen, not where the reader
# goes: it answers a where-question about that thing ("companies listed in the app" for "where can I see
# which companies …"), and none other ("কোথায় অভিযোগ করবো?"). A verb of being before the English participle
# makes it the sentence's own statement ("the token is shown on the success screen"), and one after
# the Bangla participle too ("অ্যাপে রাখা থাকে").
_THING_AFTER = re.compile(both_nukta_forms(
    " (?:দেখানো|লেখা|রাখা|দেওয়া|দেয়া|উল্লেখিত) (?!(?:হয়|হবে|হলো|হয়েছে|আছে|থাকে|থাকবে|ছিল|এবং)(?![\u0980-\u09ff]))"
    "(?P<thing>[\u0980-\u09ff]+)"))
_THING_BEFORE = re.compile(r"(?:^|(?<=[^A-Za-z]))(?P<thing>[A-Za-z]+) (?:shown|listed|displayed|printed|written|given|kept|stated) $")
_BEING = frozenset(("is", "are", "was", "were", "be", "been", "being", "as", "not", "always", "usually", "also", "only"))
# A where-question asking where to complain, report or get in touch ("কোথায় অভিযোগ করবো?", "প্রতারণা
# রিপোর্ট করবো কোথায়?") asks a channel: the number to call or the address to write to answers it as a place
# does ("১৬৭৮৯ নম্বরে কল করে জানান", "report it to 16789"). English "where can I report" is a contact question already.
# One naming its place already asks where in it ("অ্যাপ থেকে অভিযোগ জানাতে কোথায় যেতে হয়?": the menu).
_WHERE = re.compile(both_nukta_forms(" where | কোথায়| কোথা | (?:kothay|kothai|kothae) "))
_CHANNEL = re.compile(both_nukta_forms(
    " (?:complain|complaint|report|contact|reach|call|escalate|appeal|request)| অভিযোগ| রিপো(?:র্)?ট| জানা| যোগাযোগ| ফোন| কল "
    "| (?:obhijog|ovijog|abhijog|ovijoog|jogajog|janabo|janate|janai)"))


# A question asking to whom ("এরপর কার কাছে যাবো?", "kar kache jabo", "who do I contact?", "to whom …")
# asks someone to reach, not a place: the number or address to write to, or the officer or body
# reached ("অভিযোগ নিষ্পত্তি কর্মকর্তার (জিআরও) কাছে", "to our Grievance Redressal Officer", "to Bangladesh
# Bank"). Read as a place only, "who do i contact" got "অ্যাপের লেনদেন তালিকায়" (where to look) and "কার কাছে
# যাবো" "ইমেইলে" (how one is told), and the sentence naming the officer, or the number, was untyped.
_WHOM = re.compile(both_nukta_forms(
    " কার কাছে| কাদের কাছে| কাকে | (?:কার|কাদের) (?:সাথে|সঙ্গে) যোগাযোগ| (?:kar|kader) (?:kache|kace) | kake "
    "| (?:kar|kader) (?:sathe|shathe) jogajog| to whom | whom "
    "| who (?:do|should|can|could|will|would) (?:i|we) (?:complain|report|contact|escalate|call|ask|go|talk|speak|write|reach|turn)"))
# Someone a unit sends the reader to: a Bangla genitive before কাছে (up to two words naming it before
# the genitive, and an abbreviation in brackets after it), or an English name after "to" ("to our …").
_TO_WHOM_BN = re.compile(f"(?<![\u0980-\u09ff])(?:(?!{_BN_LINKS} |{_BN_CLAUSE} )[\u0980-\u09ff]+ ){{0,2}}?"
                         "[\u0980-\u09ff]+(?:র|ের) (?:[(][^()]{1,20}[)] )?কাছে(?![\u0980-\u09ff])")


def asks_whom(question: str) -> bool:
    """Whether a question asks to whom to go, write or complain (`_WHOM`).

    >>> asks_whom("এরপর কার কাছে যাবো?"), asks_whom("who do i contact and what do i need?"), asks_whom("Where do I complain?")
    (True, True, False)
    """
    return bool(_WHOM.search(cue_text(question)))


def whom(text: str) -> list[tuple[int, int]]:
    """(start, end) of whom `text` sends its reader to: its numbers and addresses, and the officer or
    body it names before কাছে, in text order (an English body after "to" is a place already).

    >>> s = "বিষয়টি আমাদের অভিযোগ নিষ্পত্তি কর্মকর্তার (জিআরও) কাছে নিয়ে যেতে পারেন। এজন্য gro@shaplapay.example ঠিকানায় লিখুন।"
    >>> [s[a:b] for a, b in whom(s)]
    ['অভিযোগ নিষ্পত্তি কর্মকর্তার (জিআরও) কাছে', 'gro@shaplapay.example']
    """
    found = [(m.start(), m.end()) for m in _TO_WHOM_BN.finditer(text)]
    for sp in typed_spans(text):
        if sp.type == "contact":
            found.append((sp.start, sp.end))
    return sorted(found)


# A place in the app (a screen, a menu, a list, a message) says where to look, not whom to reach.
_IN_APP = re.compile("(?:app|screen|menu|tab|section|page|history|statement|sms|messages?|inbox|settings"
                     "|অ্যাপ|স্ক্রিন|মেনু|পেজ|পাতা|তালিকা|অংশ|এসএমএস|ইনবক্স)[^ ]{0,4}(?: থেকে)?$", re.IGNORECASE)
_BRACKETED = re.compile("[(]([^()]+)[)]")


def _reached(question: str, who: str) -> bool:
    """Whether the question names `who` (its short name in brackets, or the whole of a name) as someone
    the asker has been to already: "জিআরও-র কাছে ইমেইল করলাম … এখন কার কাছে অভিযোগ করা যায়?" asks whom
    after the GRO, so "অভিযোগ নিষ্পত্তি কর্মকর্তার (জিআরও) কাছে" answers nothing."""
    m = _BRACKETED.search(who)
    own = set(analyze(m.group(1) if m else who))
    return bool(own) and own <= set(analyze(question))


def _describes_other(question: str, text: str, a: int, b: int) -> bool:
    """Whether the place text[a:b] is tied by a participle to a thing the question does not name."""
    m = _THING_AFTER.match(text, b)
    if m is None:
        m = _THING_BEFORE.search(text, max(0, a - 40), a)
        if m is None or m.group("thing").lower() in _BEING:
            return False
    return not set(analyze(m.group("thing"))) & set(analyze(question))


def places_for(question: str, text: str) -> tuple[tuple[int, int], ...]:
    """`places(text)` read for `question`: for one that asks where something goes (`_GOES`), the
    places `text` sends it to, and none it comes from; none tied to a thing the question does not
    name; for one asking where to complain or report, the numbers and addresses of `text` too; for
    one asking to whom, whom it sends its reader to as well (`whom`).

    >>> s = "কোনো এজেন্ট অ্যাপে দেখানো চার্জের চেয়ে বেশি টাকা নিতে পারবেন না। বেশি চার্জ নিলে ১৬৭৮৯ নম্বরে কল করে জানান।"
    >>> [s[a:b] for a, b in places_for("এজেন্ট বেশি টাকা চাইলে কোথায় অভিযোগ করবো?", s)], [s[a:b] for a, b in places(s)]
    (['১৬৭৮৯'], ['এজেন্ট অ্যাপে'])

    >>> s = "At maturity, your deposits and the profit are paid to your Shapla Pay wallet automatically."
    >>> [s[a:b] for a, b in places_for("সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?", s)], places(s)
    (['to your Shapla Pay wallet'], ())
    >>> s = "You can close Shapla Sanchay before the end of the term from the Shapla Pay app."
    >>> places_for("Where does the money go when the term ends?", s), [s[a:b] for a, b in places(s)]
    ((), ['from the Shapla Pay app'])
    """
    cue = cue_text(question)
    found = [(a, b) for a, b in places(text) if not _describes_other(question, text, a, b)]
    if _CHANNEL.search(cue) and _WHERE.search(cue) and not places(question):
        found += [(sp.start, sp.end) for sp in typed_spans(text) if sp.type == "contact"]
    if _WHOM.search(cue):  # to whom: the number, the address, the officer or body, and a channel, not a screen
        found = [(a, b) for a, b in found if not _IN_APP.search(text, a, b)]
        found += [(a, b) for a, b in whom(text) if not _reached(question, text[a:b])]
    if not _GOES.search(cue):
        return _apart(found)
    found = [(a, b) for a, b in found if not _FROM.match(text, a)
             and not (a >= 5 and _FROM.match(text, a - 5)) and not text.endswith(" থেকে", a, b)]
    found += [(m.start(), m.end()) for m in _TO_EN.finditer(text)] + [(m.start(), m.end()) for m in _TO_BN.finditer(text)]
    return _apart(found)


# Places listed with "or"/"and" share the case ending of the last one ("যেকোনো এজেন্ট পয়েন্ট বা কাস্টমার
# কেয়ার সেন্টারে", "কোম্পানির শাখা, ওয়েবসাইট বা অ্যাপ থেকে") or each have their own ("লেনদেনের এসএমএসে ও
# অ্যাপের লেনদেন তালিকায়", "in the SMS and in your transaction history").
_NOUNS_BN = f"(?:অ্যাপ|স্টোর|এসএমএস|তালিকা|অংশ|মেনু|স্ক্রিন|পেজ|পাতা|সেন্টার|প{YA}েন্ট|শাখা|অফিস|ও{YA}েবসাইট|ব্যাংক|দোকান|বুথ|ইনবক্স|এজেন্ট|হেল্পলাইন|হটলাইন|ইমেইল)"
# A listed place is named by a genitive or another place noun before its own ("কোম্পানির শাখা", "এজেন্ট পয়েন্ট").
# Words ending in র that are no genitive are not part of it: "পূরণের পর শাখা বা অফিসে" (after filling in, a
# branch or an office), "আর এজেন্ট বা শাখায়" (and an agent or a branch).
_NOT_GENITIVE = "(?!(?:আর|পর|উপর|ওপর|বার|ভেতর|ভিতর) )"
_ITEM_BN = f"(?:(?:{_NOT_GENITIVE}[\u0980-\u09ff]+র|{_NOUNS_BN}) ){{0,2}}{_NOUNS_BN}(?:ে|তে|{YA}|এ)?"
_LISTED_BN = re.compile(f"(?<![\u0980-\u09ff]){_ITEM_BN}(?:, {_ITEM_BN})*,? (?:বা|ও|অথবা|এবং) $")
_LIST_JOIN = re.compile(r"^(?:,? (?:or|and|বা|ও|অথবা|এবং)|,) $")


# A Bangla place in the app goes on to the option named in quotes, as an English path does (`_PATH_ON`):
# 'লগইন পাতায় "পিন ভুলে গেছেন?" অপশনে', 'অ্যাপের মেনু থেকে "প্রিয় নম্বর" খুলে "নতুন নম্বর যোগ করুন"'.
_PATH_ON_BN = re.compile('^(?: খুলে)? "[^"\n]{1,40}"(?: (?:অপশন|বাটন|ট্যাব)(?:ে|এ))?')


def listed(text: str, start: int, end: int) -> tuple[int, int]:
    """The place text[start:end] with the places listed with it ("an agent point or a customer
    care centre"): the reader may go to any of them, and one in bold hides the others; and a Bangla
    place with the option it goes on to (`_PATH_ON_BN`)."""
    if "\u0980" <= text[end - 1:end] <= "\u09ff":
        m = _PATH_ON_BN.match(text[end:end + 120])
        while m is not None and m.end():
            end += m.end()
            m = _PATH_ON_BN.match(text[end:end + 120])
    found = places(text)
    moved = True
    while moved:
        moved = False
        for a, b in found:
            if a < start and b <= start and _LIST_JOIN.match(text[b:start]):
                start, moved = a, True
                break
            if b > end and a >= end and _LIST_JOIN.match(text[end:a]):
                end, moved = b, True
                break
        m = _LISTED_BN.search(text, max(0, start - 80), start)
        if m and m.end() == start:
            start, moved = m.start(), True
    return start, end
