"""How a question asks and how a unit says it: whether a question asks if something may be done
("Can I …") or what is needed ("What do I need …"), and whether a unit negates a word, restricts
("… cannot be requested through an agent"), gives an instruction or states a need. Predicates
over `answertypes.cue_text` (NFC, lower case, one space between words), like `asking.py`'s.
"""

from __future__ import annotations

import functools
import re

from raglab.text.answertypes import YA, both_nukta_forms, cue_text

# Bangla says "not" of a noun's state before the light verb that makes it one: "যাচাই না হওয়া
# অ্যাকাউন্ট" (an unverified account), "চালু না থাকলে" (if not active), "নিবন্ধন না করা". There the
# noun is negated as "unverified" negates "verified" in one word: it is not the same word.
# (A finite verb's "না" comes after it, "যাচাই করা হয় না", and denies the sentence, which is an
# answer to a yes/no question, not another word.)
_NOT_THEN_LIGHT_VERB = re.compile(f" ?না (?:হও{YA}া|হলে|হ{YA}ে|করা|করলে|করে|থাকা|থাকলে)(?:র)?(?![\u0980-\u09ff])")


def negated(text: str, order) -> frozenset[str]:
    """The terms of `text` that it only ever states negated in the way above; `order` is its
    (term, start, end) tokens.

    >>> from raglab.text.analyzer import tokens
    >>> s = "যাচাই না হওয়া অ্যাকাউন্টে সর্বোচ্চ ৫,০০০ টাকা রাখা যায়।"
    >>> sorted(negated(s, [(t.term, t.start, t.end) for t in tokens(s)]))
    ['যাচাই']
    """
    neg: set[str] = set()
    pos: set[str] = set()
    for term, _, end in order:
        (neg if _NOT_THEN_LIGHT_VERB.match(text, end, end + 24) else pos).add(term)
    return frozenset(neg - pos)


# A question may negate a word in any way ("verify hoy nai emon account", "যাচাই হয়নি", "my account
# is not verified"): a "not" within two words before it, or a Bangla "না", "নি", "নাই", "নেই", "নয়"
# within two words after it.
_NOT_AFTER = re.compile(f"(?:[^ ]* ){{0,2}}?[^ ]*?(?:না|নাই|নেই|ন{YA}|নি|nai|na|ni)(?![ঀ-৿a-z])")
_NOT_BEFORE = re.compile(r"(?:^|[^a-z])(?:not|n't|never|no)(?: [^ ]+)? ?$")


def negated_loosely(text: str, order) -> frozenset[str]:
    """The terms of a question that a negation stands near (see above): a unit that states
    one of them only negated (`negated`) may still speak of it; for the question's other terms
    it speaks of another thing ("unverified" for "verified").

    >>> from raglab.text.analyzer import tokens
    >>> q = "verify হয় না এমন account e সর্বোচ্চ কত টাকা balance রাখা যায়?"
    >>> sorted(negated_loosely(q, [(t.term, t.start, t.end) for t in tokens(q)]))
    ['verify']
    """
    low = text.lower()
    out = set()
    for term, start, end in order:
        if _NOT_AFTER.match(low, end + 1, end + 24) or _NOT_BEFORE.search(low, max(0, start - 16), start):
            out.add(term)
    return frozenset(out)


# "What do I need to reset my PIN?", "কী কী লাগে?", "ki ki lagbe": a question that asks what one
# needs is answered by the unit that says what one needs ("You will need two things: your NID
# number and …"), which shares few words with it, not by the one that restates the task ("You
# can reset a forgotten PIN yourself in the app."). য় is read in both of its encodings.
_ASKS_NEED = re.compile(both_nukta_forms(
    " what (?:do|will|would|does|did) (?:i|we|you|one|he|she|they|my [a-z]+) (?:need|have to (?:bring|give|show)) "
    "| what (?:is|are|s) (?:needed|required|necessary) | what (?:documents|papers|information|details|things) "
    "| (?:requirements?|documents? (?:do|are|is)) "
    "| (?:কী|কি) (?:কী|কি )?(?:লাগ|দরকার|প্রয়োজন|তথ্য|কাগজ)|কোন কোন (?:তথ্য|কাগজ)|(?:কী|কি) নিয়ে যা"
    "| ki ki (?:lag|dorkar|proyojon|tottho|kagoj)| ki lag"))
# "You need" states a need as its clause's subject and verb, not inside a condition or a
# relative clause ("if you need to add more", "the amount you need", "what you need"), and not
# before a verb: "you need to move your account" says what one must do, not what it takes. A
# thing or a step may be the subject too ("Moving to a new device needs an OTP …").
_STATES_NEED = re.compile(both_nukta_forms(
    "(?<! if)(?<! when)(?<! unless)(?<! what)(?<! whatever)(?<! amount)(?<! much)(?<! many)"
    " (?:you|i|we|they|he|she) (?:will |would |also |only )?(?:need|needs) (?!to )| (?:is|are) (?:needed|required) "
    "|(?<! never) needs (?:a|an|your|two|both) "
    "| requires? | (?:bring|take|have) (?:your|the|these|this|with you) "
    "|লাগবে|লাগে|দরকার|প্রয়োজন|সঙ্গে নিন|সাথে নিন|নিয়ে যান|নিয়ে আসুন"))


# "the bill number, the amount, the date and the transaction ID", "লেনদেন নম্বর, তারিখ ও টাকার পরিমাণ":
# three or more things of a few words in a series, or a lead into a list, name what a question asking
# for details or what one needs wants to hear, as "you will need …" does. A part that runs longer, or
# opens with a conjunction or a pronoun, is a clause ("how to log in, how your account is linked to
# your phone, and what happens …"; "…, but we keep them and you can ask …"), and two things ("X and Y")
# are every other sentence of the articles.
_WORD = r"[^\s,;:।.!?()]+"
_THING = f"(?:{_WORD} ){{0,3}}{_WORD}"
_NOT_CLAUSE = "(?!(?:but|so|if|when|which|who|that|then|because|and|or|i|you|we|they|it|he|she|তবে|কিন্তু|যদি|তাই|আর|এবং|ও|বা) )"
_SERIES = re.compile(f"{_THING}, {_NOT_CLAUSE}{_THING},? (?:and|or|ও|এবং|বা|আর) {_NOT_CLAUSE}{_WORD}")


def lists_things(text: str) -> bool:
    """Whether a unit names three or more things in a series, or leads into a list (ends with ":").

    >>> lists_things("The receipt shows the bill number, the amount, the date and the transaction ID.")
    True
    >>> lists_things("সংশ্লিষ্ট লেনদেন নম্বর, তারিখ ও টাকার পরিমাণ।"), lists_things("এই তথ্যগুলো হাতের কাছে রাখুন:")
    (True, True)
    >>> lists_things("This article explains how to log in, how your account is linked to your phone, and what happens.")
    False
    >>> lists_things("Older statements are not shown in the app, but we keep them and you can ask for them.")
    False
    """
    return text.rstrip().endswith(":") or bool(_SERIES.search(text.lower()))


# A thing to have at hand, named with the way ("call 16789 with your merchant number", "মূল জাতীয়
# পরিচয়পত্র নিয়ে … সেন্টারে যান"): it answers what to bring even when no need is stated.
_WITH_THING = re.compile(both_nukta_forms(" with (?:your|the) |নিয়ে "))


def names_nothing_needed(units: list[str]) -> bool:
    """Whether none of `units` (the quotes of an answer to a question asking what one needs or
    which details) says what is needed, names things or a thing to have at hand (`states_need`,
    `lists_things`, "with your …", "… নিয়ে")."""
    return not any(states_need(u) or lists_things(u) or _WITH_THING.search(u.lower()) for u in units)


# "how many days", "কত মিনিট", "koto din": a how-long question that counts a unit asks for a number,
# which "until you ask to reopen it" or "at once" (answers to a bare "how long") do not give.
_COUNTS_TIME = re.compile(both_nukta_forms(
    "how many (?:working )?(?:days|hours|minutes|weeks|months|years)"
    "|(?:কত|কতো) ?(?:দিন|ঘণ্টা|ঘন্টা|মিনিট|সপ্তাহ|মাস|বছর|কার্যদিবস)"
    "|koto ?(?:din|ghonta|minute|minit|mash|hour|day)"))


def counts_time(question: str) -> bool:
    """Whether a question asks how many days, hours or minutes (a number of a unit of time).

    >>> counts_time("How many days before the due date does the reminder come?"), counts_time("How long does eKYC take?")
    (True, False)
    >>> counts_time("ওটিপি কত মিনিট পর্যন্ত কাজ করে?"), counts_time("NID update korte koto din lage?")
    (True, True)
    """
    return bool(_COUNTS_TIME.search(cue_text(question)))


def asks_need(question: str) -> bool:
    """Whether a question asks what one needs (documents, details, things to bring).

    >>> asks_need("What do I need to reset a forgotten PIN?"), asks_need("How do I reset my PIN?")
    (True, False)
    >>> asks_need("পিন রিসেট করতে কী কী তথ্য লাগে?"), asks_need("pin set korte ki ki lagbe")
    (True, True)
    """
    return bool(_ASKS_NEED.search(cue_text(question)))


@functools.lru_cache(maxsize=50_000)
def states_need(text: str) -> bool:
    """Whether a unit says what one needs ("You will need two things: …", "… লাগবে")."""
    return bool(_STATES_NEED.search(cue_text(text)))


# What an instruction looks like: an English sentence that starts with a verb in the
# imperative (optionally after "please", "always", "never", "do not" or "first,"), or a Bangla
# sentence that ends with an imperative or polite-future verb ("দিন", "করুন", "দেবেন না").
_EN_IMPERATIVE = frozenset("""add answer apply ask avoid block bring call cancel carry change check choose close collect
come confirm contact count dial do download enter export fill find follow give go hand hang install keep let link
log look make move note open pay pick press put read recharge refuse register remember report request reset save
scan see select send set share show sign slide start stay submit switch take tap tell top transfer try turn type
unlock update upload use verify visit wait withdraw write""".split())
_EN_LEAD = frozenset("please always never first then just simply instead".split())
_LABELS = ("note:", "tip:", "important:")  # a label before the sentence, not its verb
_CONDITIONS = ("if ", "when ", "once ", "before ", "after ", "while ", "until ")
_BN_IMPERATIVE = re.compile("(?:ুন|দিন|নিন|যান|ান|"
                            "বেন(?: না)?)[।!.]?$")


@functools.lru_cache(maxsize=50_000)  # per unit text, read again for every question
def imperative(text: str) -> bool:
    """Whether a sentence tells the reader to do something (see above)."""
    head = text[:120].lower()
    if head.startswith(_LABELS):  # "Note: Shapla Pay staff will never call …" is a remark, not "note …"
        head = head[head.index(":") + 1:].lstrip()
    comma = head.find(", ")
    # "Before doing anything, check …"; a condition may run longer ("If … was not credited, call …")
    if 0 < comma < 40 or 0 < comma and head.startswith(_CONDITIONS):
        head = head[comma + 2:]
    words = [w for w in re.split("[^A-Za-z']+", head) if w][:4]
    i = 0
    while i < len(words) - 1 and (words[i] in _EN_LEAD or words[i] in ("do", "don't") and words[i + 1] in ("not", "never")
                                  or words[i] == "not"):
        i += 1
    if words and words[i] in _EN_IMPERATIVE:
        return True
    return bool(_BN_IMPERATIVE.search(text.rstrip()[-12:]))



# What says only how a thing is not done: a statement (no instruction: "Do not send it back" and
# "… জানাবেন না" tell the reader what to do) whose main clause, after any condition, is negated:
# "Closure cannot be requested through an agent point", "If your provider is not listed, you
# cannot pay it …", "… এজেন্টের কাছে বন্ধ করা যায় না।", "… পারবেন না।". Matched on `cue_text`.
_EN_NOT = re.compile(" (?:cannot|can t|can not|could not|couldn t|is not|isn t|are not|aren t|will not|won t|does not|"
                     "doesn t|do not|don t|not possible|not allowed|no longer|never|nobody|no one) (?!only )")
# Whole words only ("এখানেই" holds নেই); "কোনো চার্জ নেই" states a price, as "There is no fee" does.
_BN_NOT = re.compile(f" (?:পারবেন না|পারবে না|পারে না|(?:যা{YA}|যাবে|হ{YA}|হবে|থাকে|দে{YA}|নে{YA}) না|ন{YA}) , $"
                     "|(?<!চার্জ)(?<!ফি)(?<!খরচ)(?<!মাশুল) নেই , $")
# Not only how it is not done: a clause beside says how it is ("Older statements are not shown in the
# app, but … you can ask for them", "অ্যাপ থেকে বন্ধ করতে পারেন, এজেন্টের কাছে নয়।"; "… যায় না, তবে
# … যায়।" ends positive already).
_BUT_CAN = re.compile(" (?:but|however|instead) (?:.* )?(?:you|we) (?:can|may) (?!t |not )"
                      f"|(?:পারেন|পারবেন|যা{YA}|যাবে) , [^,]* ন{YA} , $")
# A question asking whether something may be done, not only how: its answer may be the rule.
_ASKS_MAY = re.compile(" (?:can|could|may) (?:i|we|you|he|she|they|my [a-z]+) | allowed | possible | is there (?:any )?way "
                       f"| (?:parbo|parbe|jabe|jay) ki |পার(?:ব|বো|বেন|বে)(?:না)? কি|যাবে কি|যা{YA} কি| কি .*(?:যা{YA}|যাবে|পারব)")


def restricts(text: str) -> bool:
    """Whether a unit says only how a thing is not done (see `_EN_NOT`).

    >>> restricts("Closure cannot be requested through an agent point."), restricts("Do not send it back yourself.")
    (True, False)
    >>> restricts("এজেন্টের কাছে অ্যাকাউন্ট বন্ধ করা যায় না।"), restricts("পিন কাউকে জানাবেন না।")
    (True, False)
    """
    if imperative(text) and not text.rstrip(" ।.!").endswith("পারবেন না"):
        return False
    cue = cue_text(text)
    comma = cue.find(" , ")
    if comma > 0 and cue.startswith(tuple(" " + c for c in _CONDITIONS)):
        cue = cue[comma + 2:]
        while cue.startswith((" or ", " and ")) and " , " in cue:  # "If A, or B, you can …": the condition goes on
            cue = cue[cue.find(" , ") + 2:]
    if cue.startswith((" do not ", " don t ", " never ")):  # "If an agent asks …, or offers …, do not hand it over."
        return False
    return not _BUT_CAN.search(cue) and bool(_EN_NOT.search(cue.split(" , ")[0] + " ") or _BN_NOT.search(cue))


def asks_may(question: str) -> bool:
    """Whether a question asks whether a thing may be done ("Can I close it at an agent?"),
    which a rule of what is not done answers, and not only how ("How can I close it?").

    >>> asks_may("Can I close my account at an agent?"), asks_may("How can I close my account?")
    (True, False)
    """
    return bool(_ASKS_MAY.search(_ONLY_HOW.sub(" how ", cue_text(question))))


# "How could I …", "What can I do if …", "কি ভাবে … পারবো" ask how, not whether.
_ONLY_HOW = re.compile(" (?:how (?:can|could|may)|what (?:can|could) (?:i|we) do|(?:কি|কী) ভাবে) ")


# A question asking whether one should do a thing, or whether what one did or was asked to do is all
# right: "Should I send the same recharge again?", "… is that ok??", "Is it worth going over these tips
# with my parents?", "… ওটিপি চাচ্ছে। দিবো?" (shall I give it?), "দেব?". Its answer is what to do.
_ASKS_SHOULD = re.compile(" (?:should|shud|shall) (?:i|we) | is (?:that|it|this) (?:ok|okay|fine|safe|alright) "
                          "| is it worth | do i give (?:it|them|him|her) "
                          "| (?:দেব|দেবো|দিব|দিবো|করব|করবো) , | উচিত ")


def asks_should(question: str) -> bool:
    """Whether a question asks whether one should do a thing (see above).

    >>> asks_should("the casheir offered to type my pin, is that ok??"), asks_should("একজন ওটিপি চাচ্ছে। দিবো?")
    (True, True)
    >>> asks_should("Can I close my account at an agent?"), asks_should("What should I do now?")
    (False, False)
    """
    cue = cue_text(question)
    return bool(_ASKS_SHOULD.search(cue)) and not cue.lstrip().startswith(("what ", "how ", "which ", "where "))



# The side a yes/no question asks about and the unit that takes it: whether one can (may, is allowed,
# "can the shop …", "whether I may …", "is there a way", "… করা যায়?", "parbo"), whether one needs to (must,
# has to, "লাগবে?"), what it costs ("Does it cost anything …?", "চার্জ কাটবে?"; not "রিচার্জ", a recharge,
# whose letters end in "চার্জ"), or whether a thing will happen ("Will I get a message …?", "Do you remind
# me?"). A unit takes the side by saying it either way ("can"/"cannot", "you will need"/"you do not need",
# "is free"/"a fee of …", "you will receive"/"are always sent"). Bangla "যায়" after a verbal noun in -া is a
# modal ("খোলা যায়", can be opened); after a participle it is not ("লক হয়ে যায়", gets locked). Matched on
# `cue_text`.
_ASKS_SIDE = {
    "can": re.compile(" (?:can|could|may) (?:i|we|you|he|she|they|it|my [a-z]+|the [a-z]+|someone|anyone|somebody) "
                      "| whether (?:i|we|he|she|they) (?:can|could|may) | allowed | possible | is there (?:a |any )?way "
                      f"| able to |পার(?:ব|বো|বেন|বে|বি)| (?:যা{YA}|যাবে|jay|jabe|parbo|parbe) |উপা{YA} আছে| chalbe |চলবে"),
    "need": re.compile(" (?:do|does|will) (?:i|we|you|he|she|they|it|my [a-z]+) (?:need|have to|has to) | (?:have|has) to | must "
                       "| required | necessary |লাগবে|লাগে|দরকার|প্রয়োজন|করতে হবে|দিতে হবে|হবে কি| lagbe | hobe "),
    "price": re.compile(" (?:cost|costs|charge|charges|charged|free|pay anything|pay extra|any fees?|a fee|extra fees?) "
                        "|(?<!রি)চার্জ|ফি |খরচ|ফ্রি|কাটবে| katbe | charge "),
    "will": re.compile(" will (?:i|we|you|he|she|they|it|my [a-z]+|the [a-z]+) (?!need |have to |has to |cost |be charged )"
                       "| do you [a-z]+ me "),
}
_TAKES_SIDE = {
    "can": re.compile(" (?:can|cannot|may|allowed|accepted|possible|able|not able|only) "
                      f"|া (?:যা{YA}|যাবে)|পার(?:বেন|েন|বে|ে|ব|বো) |যাবে না|যা{YA} না"),
    "need": re.compile(" (?:need|needs|needed|must|required|requires|have to|has to|do not have to|don t have to|no need) "
                       "|লাগবে|লাগে|দরকার|প্রয়োজন|হবে|হয় না"),
    "price": re.compile(" (?:free|fee|fees|charge|charges|charged|cost|costs|tk|taka|%|percent) "
                        "|ফ্রি|ফি |(?<!রি)চার্জ|খরচ|বিনামূল্যে|টাকা|%"),
    "will": re.compile(" (?:will|won t|always|never|automatically) |পাবেন|দেখানো হয়|জানানো হয়|জানিয়ে দেওয়া হয়"),
}


def sides_asked(question: str) -> tuple[str, ...]:
    """The sides a yes/no question asks about (see above), in a fixed order.

    >>> sides_asked("Does it cost anything to have my account blocked?"), sides_asked("ঋণ কি আগেই শোধ করা যায়?")
    (('price',), ('can',))
    """
    cue = cue_text(question)
    return tuple(k for k, rx in _ASKS_SIDE.items() if rx.search(cue))


@functools.lru_cache(maxsize=50_000)
def takes_side(text: str, sides: tuple[str, ...]) -> bool:
    """Whether a unit says yes or no on one of `sides` (see above).

    >>> takes_side("Blocking the account is free.", ("price",)), takes_side("It does not unblock by itself.", ("price",))
    (True, False)
    >>> takes_side("রাতবিরেতে অ্যাপ থেকেই টাকা ভরে নেওয়া যায়।", ("can",)), takes_side("অ্যাকাউন্ট লক হয়ে যায়।", ("can",))
    (True, False)
    """
    cue = cue_text(text)
    return any(_TAKES_SIDE[k].search(cue) for k in sides)


# A report of a fault: the asker tried and it failed ("I can't log in to the app", "লগইন করতে পারছি না",
# "OTP ashche na", "the app is not opening"). The way the thing is done ("You can log in to the app with
# your PIN or with a fingerprint.") does not answer it; a unit that names a failure or a limit may ("If the
# OTP does not arrive, check …", "The maximum is Tk 1,000 per recharge.").
_REPORTS = re.compile(" (?:i|we) (?:can t|cant|cannot|can not|couldn t|could not|am unable to|am not able to) "
                      "| (?:isn t|is not|doesn t|does not|won t|will not|not) (?:working|work|open|opening|arriving|coming) "
                      "| (?:পারছি|পারতেছি|পারতেসি|পারি) না | পারছিনা | (?:হচ্ছে|হচ্ছেনা|আসছে|খুলছে|করছে) না "
                      "| (?:parchi|partesi|partechi|pari|hocche|hoche|hochhe|ashche|asche|ashtese|khulche|korche) na | parchina ")
# A condition alone names no failure: "Fingerprint: if your phone has a fingerprint sensor, you can turn on …".
_NAMES_FAULT = re.compile(f" (?:not|no|never|cannot|can t|n t|problem|error|fail|failed|fails|locked|lock|blocked|"
                          f"না|নেই|নাই|নি|ন{YA}|সমস্যা|ব্যর্থ|লক)(?![ঀ-৿a-z])|[0-9০-৯]")


@functools.lru_cache(maxsize=4096)
def reports_fault(question: str) -> bool:
    """Whether a question reports that something the asker tried failed (see above).

    >>> reports_fault("I can't log in to the app"), reports_fault("অ্যাপে লগইন করতে পারছি না"), reports_fault("otp ashche na")
    (True, True, True)
    >>> reports_fault("Why can't Shapla Pay reverse a recharge?"), reports_fault("কীভাবে লগইন করব?")
    (False, False)
    """
    return bool(_REPORTS.search(cue_text(question)))


@functools.lru_cache(maxsize=50_000)
def names_fault(text: str) -> bool:
    """Whether a unit names a failure or a figure (a limit), not only the way a thing is done.

    >>> names_fault("You can log in to the app with your PIN or with a fingerprint.")
    False
    >>> names_fault("If the OTP does not arrive, check the signal."), names_fault("পিন ভুল হলে অ্যাকাউন্ট লক হয়।")
    (True, True)
    >>> names_fault("Fingerprint: if your phone has a fingerprint sensor, you can turn on fingerprint login.")
    False
    """
    return bool(_NAMES_FAULT.search(cue_text(text)))


# A unit that applies only when something has failed: an escalation or an exception ("If you are not
# satisfied", "If your complaint is not resolved, …", "সমাধানে সন্তুষ্ট না হলে", "যদি … না হয়"), in its
# section's heading or its sentence's opening clause. It answers the asker in that case, not the one who
# asks the plain way ("what e-mail do I send a complaint to?" is the support address, not the grievance
# officer's under "If you are not satisfied"). A condition that names no failure ("If you need a refund")
# is a case of its own, not a later step, and is left alone.
_EN_FAILED = "(?:[^,]* )?(?:not|n t|never|no longer|still|unresolved|unhappy|unsatisfied|dissatisfied)"
_CONDITIONAL = re.compile(f"^ (?:(?:if|when|once) {_EN_FAILED} |unless |যদি (?:[^,।]* )?(?:না|নি|নেই|নাই) )"
                          f"|^ [^,।]*(?:না|নি) (?:হলে|হয়|পেলে|মিটলে|মেটে|আসে|আসলে|এলে)(?![ঀ-৿])")


@functools.lru_cache(maxsize=50_000)
def conditional(text: str) -> bool:
    """Whether a heading or a unit opens on the condition that something failed (see above).

    >>> conditional("If you are not satisfied"), conditional("সমাধানে সন্তুষ্ট না হলে"), conditional("If your complaint is not resolved, write to the GRO.")
    (True, True, True)
    >>> conditional("যদি টাকা না আসে, হটলাইনে কল করুন।"), conditional("এরপরও সমাধান না হলে")
    (True, True)
    >>> conditional("If you need a refund"), conditional("Ways to complain"), conditional("Write to support@shaplapay.example.")
    (False, False, False)
    >>> conditional("You can complain, and if it is not resolved, escalate it.")
    False
    """
    return bool(_CONDITIONAL.search(cue_text(text)))


# A question names the failed case when it says that something failed or is still open ("not
# satisfied", "didn't help", "still", "again", "সমাধান হয়নি", "মেটেনি", "এখনও", "আবার"), reports what went
# wrong ("a failed payment", "ভুল চার্জ", "সমস্যা": the asker is in the failed case already) or asks to go
# past the first step ("escalate", "appeal", the grievance officer, after a reply). Then the conditional
# unit may be its answer; the rule reads no further (which condition, which step): the model does.
# An English negative contraction as `cue_text` writes it: the apostrophe is a space ("didn't" is
# "didn t", "hasn't" "hasn t"), or typed without it ("didnt", "isnt").
_EN_NT = "[a-z]*n t|(?:do|does|did|is|are|was|were|has|have|had|could|would|ca|wo)nt"
_STILL_FAILED = re.compile(f" (?:not|{_EN_NT}|no|never|still|again|unresolved|unhappy|unsatisfied|dissatisfied|after|"
                           f"na|nai|ni|hoyni|abar|ekhono|erpor|না|নি|নাই|নেই|ন{YA}|এখনও|এখনো|আবার|এরপর|এরপরও|তারপর|পরও|পরেও|অসন্তুষ্ট)"
                           f"(?![ঀ-৿a-z])|(?:হ{YA}|হ{YA}ে|মেটে|মিটে|পাই|দে{YA}|দে|করে|আসে|পে{YA}ে|পা)নি(?![ঀ-৿])")
_NAMES_CONDITION = re.compile(_STILL_FAILED.pattern + "| (?:escalate|escalating|escalation|appeal|grievance|gro|জিআরও|fail|failed|fails|"
                              "failure|wrong|problem|problems|error|issue|stuck|missing)(?![ঀ-৿a-z])"
                              "| (?:ভুল|সমস্যা|ব্যর্থ|আটকে|আটকা)")  # with a case ending: "সমস্যার", "ভুলে"


@functools.lru_cache(maxsize=4096)
def names_condition(question: str) -> bool:
    """Whether a question names a failed case or a later step (see above).

    >>> names_condition("which email if I'm not satisfied?"), names_condition("জিআরও-র উত্তরের পরও সমাধান না হলে কোথায় যাব?")
    (True, True)
    >>> names_condition("সমস্যা মেটেনি, এখন কার কাছে যাব?"), names_condition("GRO-ke kon email e likhbo?")
    (True, True)
    >>> names_condition("which e-mail do I write my complaint to?"), names_condition("কোন ইমেইলে অভিযোগ পাঠাব?")
    (False, False)
    """
    return bool(_NAMES_CONDITION.search(cue_text(question)))


@functools.lru_cache(maxsize=4096)
def still_failed(question: str) -> bool:
    """Whether a question says that something failed or is still open (not only that it names a party
    or a fault): a step it has taken did not help.

    >>> still_failed("GRO-r reply peyechi kintu somadhan hoyni"), still_failed("জিআরও-র উত্তরের পরও কোথায় যাব?")
    (True, True)
    >>> still_failed("What is the GRO's email address?"), still_failed("my payment failed, who do I call?")
    (False, False)
    >>> still_failed("I called 16789 but it didn't help"), still_failed("the money hasnt come back"), still_failed("I don't know the fee")
    (True, True, True)
    """
    return bool(_STILL_FAILED.search(cue_text(question)))
