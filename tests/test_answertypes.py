"""Answer types of questions (English, Bangla, Banglish) and typed spans in text."""

import json
import os

import pytest

from raglab.answer.facts import asks_two
from raglab.text import analyzer, answertypes
from raglab.text.answertypes import SPAN_TYPES, TYPES, accepts, asked_sentences, asks_to_verify, cue_text, parse_table, question_type, question_types, typed_spans, verifies_only, verifying_words

# (question, expected type): at least one per type and language the table claims to cover.
QUESTIONS = [
    # amount
    ("How much does it cost to send money?", "amount"),
    ("What is the cash out fee at an agent?", "amount"),
    ("What's the most cash I can put in through an agent in one day?", "amount"),
    ("এজেন্টের কাছে ক্যাশ আউট করলে চার্জ কত?", "amount"),
    ("একবারে সর্বনিম্ন কত টাকা ক্যাশ আউট করা যায়?", "amount"),
    ("টাকা তুলতে কত খরচ?", "amount"),
    ("cash out charge koto?", "amount"),
    ("send money e koto taka lage", "amount"),
    ("max recharge amount per day?", "amount"),  # "max" is short for maximum, a cue on its own
    # a question that opens with "who" asks for an entity, even when it names a fee
    ("Who issues the cash out fees?", "person"),
    ("Who do I contact about the fees?", "place"),
    # percent
    ("What profit rate does the savings scheme pay?", "percent"),
    ("What interest do I earn in the savings scheme?", "percent"),
    ("প্রবাসী আয়ের সঙ্গে কত শতাংশ সরকারি প্রণোদনা যোগ হয়?", "percent"),
    ("সঞ্চয়ে মুনাফা কত?", "percent"),
    ("loan er interest koto", "percent"),
    ("savings e koto interest pabo", "percent"),  # not "koto" alone, an amount
    ("সঞ্চয়ে কত সুদ পাব?", "percent"),  # not a yes/no question
    ("শাপলা সঞ্চয়ে বছরে কত মুনাফা দেয়?", "percent"),
    # count
    ("How many Priyo numbers can I save?", "count"),
    ("দিনে কতবার ক্যাশ ইন করা যায়?", "count"),
    ("কয়বার ভুল পিন দিলে লক হয়?", "count"),
    ("শাপলা পে-র পিন কয় সংখ্যার হয়?", "count"),
    ("dine koto bar cash out kora jay", "count"),
    # duration
    ("How long does a pending verification review take?", "duration"),
    ("How soon will the refund arrive?", "duration"),
    ("কাস্টমার কেয়ারে অভিযোগ দিছি, সমাধান হতে কতদিন লাগে?", "duration"),
    ("বিদেশ থেকে টাকা আসতে কত সময় লাগে?", "duration"),
    ("আর কতক্ষণ লাগবে?", "duration"),
    ("add money from bank koto time lage", "duration"),  # not "koto" alone, an amount
    ("refund asbe koto time por", "duration"),
    ("remittance ashte koto shomoy lage", "duration"),
    ("রেমিট্যান্স আসতে কত টাইম লাগে?", "duration"),
    ("একাউন্ট খুলতে কত মিনিট লাগে", "duration"),
    ("refund pete koto din lagbe", "duration"),
    # time
    ("What time do agents close in the evening?", "time"),
    ("When do reward points expire?", "time"),
    ("In what year did the Game Boy come out?", "time"),
    ("অভিযোগ নম্বর কখন পাওয়া যায়?", "time"),
    ("টাকা কবে ফেরত পাবো?", "time"),
    ("taka kobe ferot pabo", "time"),
    # age
    ("How old do I have to be to open an account?", "age"),
    ("What is the minimum age for an account?", "age"),
    ("অ্যাকাউন্ট খুলতে ন্যূনতম বয়স কত?", "age"),
    ("account khulte boyosh koto lage", "age"),
    # contact
    ("What number do I call from outside Bangladesh?", "contact"),
    ("What is the email address of the grievance officer?", "contact"),
    ("Where can I report a suspicious number?", "contact"),
    ("হটলাইন নম্বর কত?", "contact"),
    ("সন্দেহজনক নম্বরের কথা কোথায় জানাব?", "contact"),
    ("helpline number koto", "contact"),
    ("What is the customer care number?", "contact"),  # a new user's: was no type, so no number in bold
    ("What's your support number?", "contact"),
    # which e-mail or which number: the address or the number to write to or call
    ("Which email do I write to with a complaint?", "contact"),
    ("what e-mail should i send my complaint to?", "contact"),
    ("Which address do I email for an old statement?", "contact"),
    ("কোন ইমেইলে অভিযোগ পাঠাব?", "contact"),
    ("অভিযোগ ইমেইলে পাঠাতে চাই, কোন ঠিকানায় পাঠাব?", "contact"),
    ("প্রতারণার নম্বর জানাতে কোন নাম্বারে ফোন দিব?", "contact"),
    ("kon email e complain pathabo?", "contact"),
    ("kon number e call dibo?", "contact"),
    # yes/no
    ("Is there a fee to cash in at an agent?", "yesno"),
    ("My son is 16, can he open his own account?", "yesno"),
    ("শাপলা পে দিয়ে কি বাসের টিকিট কাটা যায়?", "yesno"),
    ("শাপলা পে থেকে রকেট বা নগদ একাউন্টে টাকা পাঠানো যায়?", "yesno"),
    ("ki bus ticket kata jay", "yesno"),
    # procedure
    ("How do I reactivate a dormant account?", "procedure"),
    ("I am locked out, what now?", "procedure"),
    ("নতুন পিন কীভাবে সেট করব?", "procedure"),
    ("নতুন পিন কিভাবে সেট করবো?", "procedure"),
    ("মোবাইল চুরি হয়ে গেছে, এখন কি করবো?", "procedure"),
    ("pin kivabe reset korbo", "procedure"),
    # place
    ("Where can I find the receipt for a bill I paid?", "place"),
    ("জিআরও-র উত্তরের পরও সমাধান না হলে কোথায় অভিযোগ করা যায়?", "place"),
    ("agent kothay pabo", "place"),
    ("Whom do I contact about a failed recharge?", "place"),
    ("অভিযোগ নিয়ে কার সাথে যোগাযোগ করব?", "place"),
    ("কার্ড কোন ঠিকানায় পাঠাবে?", "place"),  # an address with no e-mail named: a place
    ("Which email app can open the statement PDF?", "other"),
    # person
    ("Who licenses Shapla Pay?", "person"),
    ("Who founded Ashton-Tate?", "person"),
    ("শাপলা পে-র লাইসেন্স কে দেয়?", "person"),
    ("license ke dey", "person"),
    # entity
    ("What is the name of the Steelers home stadium in Pittsburgh?", "entity"),
    ("What was the first spacecraft to land on Mars?", "entity"),
    # other
    ("What happens if a mobile recharge fails?", "other"),
    ("পরপর ৩ বার ভুল পিন দিলে কী হয়?", "other"),
    ("নতুন ফোনে লগইন করতে কি কি লাগবে?", "other"),
]


@pytest.mark.parametrize("question,expected", QUESTIONS)
def test_question_type(question, expected):
    assert question_type(question) == expected


def test_every_type_and_language_is_tested():
    covered = {t for _, t in QUESTIONS}
    assert covered == set(TYPES)


@pytest.mark.parametrize("question", ["", "?", "?" * 10_000, "1,50,000", "৳", "Tk", "১২৩৪৫",
                                      "cash আউট fee কত?", "\u200d\u200c", "# heading\n- item"])
def test_odd_questions_get_a_type_not_an_error(question):
    assert question_type(question) in TYPES
    assert all(t in TYPES for t in question_types(question))


@pytest.mark.parametrize("keywords", ["cash out fee", "CASH OUT FEE", "agent cash out charge", "remittance fees",
                                      "ক্যাশ আউট চার্জ", "এটিএমে খরচ"])
def test_keywords_typed_into_a_search_box_ask_what_the_question_would(keywords):
    # Customers type "cash out fee" as often as "cash out fee?"; the question mark must not
    # decide whether a fee is asked (without it the answer was withheld at 0.56, with it 0.84).
    assert question_type(keywords) == question_type(keywords + "?") == "amount"


@pytest.mark.parametrize("keywords,expected", [("cash out limit", "amount"), ("ক্যাশ আউট লিমিট", "amount"),
                                               ("সেন্ড মানি সীমা", "amount"), ("customer care number", "contact"),
                                               ("refund time", "duration"), ("ekyc processing time", "duration")])
def test_limits_numbers_and_times_typed_as_keywords(keywords, expected):
    assert question_type(keywords) == question_type(keywords + "?") == expected


@pytest.mark.parametrize("text", ["the fee was taken twice from my wallet", "my first time", "I sent money last time",
                                  "my number", "I reached my limit.", "I was charged a fee", "I need more time",
                                  "it takes time", "best time", "Why was my payment over the limit?"])
def test_a_keyword_inside_a_statement_asks_nothing_more(text):
    assert question_type(text) == "other"


@pytest.mark.parametrize("question,expected", [("How do I increase my cash out limit?", "procedure"),
                                               ("Where can I see my cash out limit?", "place"),
                                               ("টাকা কি ফিরবে?", "yesno"), ("লেনদেন কি সীমাবদ্ধ?", "yesno"),
                                               ("e-KYC processing time", "duration"), ("opening time", "other")])
def test_a_question_ending_in_a_keyword_keeps_what_its_words_ask(question, expected):
    # Only a short phrase of keywords is read as asking the keyword's value; a how-to or where
    # question that ends in "limit", or a Bangla verb that starts like ফি or সীমা, is not.
    assert question_type(question) == expected


def test_a_story_clause_ending_in_a_fee_asks_no_second_fact():
    assert not asks_two("I was charged the fee, how long until the refund?")
    assert not asks_two("I hit my limit, when does it reset?")


def test_precomposed_and_nukta_forms_are_the_same_cue():
    nukta = "কত সম\u09af\u09bc লাগে?"
    precomposed = "কত সম\u09df লাগে?"
    assert question_type(nukta) == question_type(precomposed) == "duration"


def test_multi_fact_question_asks_for_two_types_in_order():
    assert question_types("How much can I borrow, and at what interest rate?") == ["amount", "percent"]
    assert question_types("সেন্ড মানিতে দিনে কতবার এবং দিনে মোট কত টাকা পাঠানো যায়?") == ["count", "amount"]


# (text, expected [(type, surface)]): the spans and exactly the text they cover.
SPANS = [
    ("The fee is 1.85% of the amount, which is Tk 18.50 per Tk 1,000.",
     [("percent", "1.85%"), ("amount", "Tk 18.50"), ("amount", "Tk 1,000")]),
    ("Up to Tk 1,50,000 a month, or 150,000 taka.", [("amount", "Tk 1,50,000"), ("amount", "150,000 taka")]),
    ("দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।", [("amount", "২৫,০০০ টাকা")]),
    ("চার্জ ৳৫ এবং ১.৯৫%।", [("amount", "৳৫"), ("percent", "১.৯৫%")]),
    ("মাসে সর্বোচ্চ দুই লাখ টাকা।", [("amount", "দুই লাখ টাকা")]),
    ("Pending reviews finish within 24 hours.", [("duration", "24 hours")]),
    ("Refunds take 7 working days; sales settle T+1.", [("duration", "7 working days"), ("duration", "T+1")]),
    ("৭ কার্যদিবসের মধ্যে অভিযোগের সমাধান করা হয়।", [("duration", "৭ কার্যদিবস")]),
    ("Settled the next working day.", [("duration", "the next working day")]),
    ("Up to 5 cash-outs a day and 50 sends.", [("count", "5 cash-outs"), ("count", "50 sends")]),
    ("দিনে সর্বোচ্চ ৫ বার, প্রিয় নম্বর ৫টি।", [("count", "৫ বার"), ("count", "৫টি")]),
    ("The PIN has five digits.", [("count", "five digits")]),
    ("The holder must be 18 or older.", [("age", "18 or older")]),
    ("Can a 16-year-old open an account?", [("age", "16-year-old")]),  # hyphened, as people write it
    ("He was 25-years-old then.", [("age", "25-years-old")]),
    ("অ্যাকাউন্ট খুলতে বয়স কমপক্ষে ১৮ বছর হতে হবে।", [("age", "বয়স কমপক্ষে ১৮ বছর")]),
    ("Agents are open from 9 am to 9 pm.", [("time", "9 am"), ("time", "9 pm")]),
    ("এজেন্ট সকাল ৯টা থেকে রাত ৯টা পর্যন্ত খোলা।", [("time", "সকাল ৯টা"), ("time", "রাত ৯টা")]),
    ("Call 16789, from abroad +880 9612 016789.", [("contact", "16789"), ("contact", "+880 9612 016789")]),
    ("হটলাইন ১৬৭৮৯-এ কল করুন।", [("contact", "১৬৭৮৯")]),
    ("Dial *269# on any phone or email support@shaplapay.example.",
     [("contact", "*269#"), ("contact", "support@shaplapay.example")]),
    ("My number is 01712-345678.", [("contact", "01712-345678")]),
    ("Nothing typed here at all.", []),
    ("It was released on April 21, 1989 in Japan.", [("time", "April 21, 1989"), ("name", "Japan")]),
    ("Founded 10 June 1865 by George Tate and Hal Lashlee.", [("time", "10 June 1865"), ("name", "George Tate and Hal Lashlee")]),
    ("Built in the fourteenth century, rebuilt in 1911.", [("time", "fourteenth century"), ("time", "1911")]),
    ("There are 650 surviving violins.", [("number", "650")]),
]


@pytest.mark.parametrize("text,expected", SPANS)
def test_typed_spans(text, expected):
    """Names and bare numbers (the lowest-priority span types) are checked only where listed."""
    low = {"name", "number"} - {t for t, _ in expected}
    got = [(s.type, text[s.start:s.end]) for s in typed_spans(text) if s.type not in low]
    assert got == expected


def test_a_bare_amount_is_not_a_phone_number():
    assert [s.type for s in typed_spans("Send Tk 16789 or 16789 taka")] == ["amount", "amount"]


def test_a_number_word_joined_to_a_word_is_no_value():
    """"a one-time code" states no count: "How many care centres …?" is not answered by it."""
    for text in ("They will never ask for your PIN or a one-time code.", "a one-off fee", "a two-step check"):
        assert [s for s in typed_spans(text) if s.type == "number"] == [], text
    assert [("number", "one"), ("number", "24")] == [
        (s.type, t[s.start:s.end]) for t in ("open one of them", "a 24-hour line") for s in typed_spans(t)]


def test_a_capitalised_sentence_start_is_not_a_name():
    text = "Pending reviews finish soon. Call the Grievance Redressal Officer. Hal Lashlee left."
    assert [text[s.start:s.end] for s in typed_spans(text) if s.type == "name"] == [
        "Grievance Redressal Officer", "Hal Lashlee"]


@pytest.mark.parametrize("text", ["?" * 10_000, "1" * 5000, "৳" * 300, "Tk " * 300, "%" * 100, "", "@@@.#*#"])
def test_spans_of_odd_text_are_well_formed(text):
    spans = typed_spans(text)
    end = 0
    for s in spans:
        assert s.type in SPAN_TYPES and end <= s.start < s.end <= len(text)
        end = s.end


def test_spans_match_both_nukta_forms():
    for sample in ("সময় ২৪ ঘণ্টা", "পয়েন্ট ১০০ পয়েন্ট"):
        assert [s.type for s in typed_spans(sample)] == [s.type for s in typed_spans(sample.replace("\u09af\u09bc", "\u09df"))]


def test_accepts():
    assert accepts("amount") == ("amount", "percent")
    assert accepts("yesno") == ()
    assert accepts("no such type") == ()


def test_a_broken_table_row_is_named():
    data = json.loads(json.dumps({"types": {t: "" for t in TYPES}, "accepts": {t: [] for t in TYPES},
                                  "number_words": {"en": ["one"], "bn": ["এক"]},
                                  "question_cues": [{"type": "amount", "lang": "en", "cue": "("}],
                                  "span_patterns": []}))
    with pytest.raises(ValueError, match=r"question_cues\[0\]"):
        parse_table(data)
    data["question_cues"] = [{"type": "money", "lang": "en", "cue": "x"}]
    with pytest.raises(ValueError, match="bad type"):
        parse_table(data)


def test_control_characters_and_escapes_separate_cue_words_like_spaces():
    """The analyzer reads "What\x1fis" as two words; the cues must too, or the question loses its type."""
    clean = "What is the cash out fee?"
    for odd in ("What\x1fis the cash out fee?", "What\x1b[31mis\x1b[0m the cash out fee?", "What\u2003is the\x85cash out fee?"):
        assert cue_text(odd) == cue_text(clean)
        assert question_type(odd) == question_type(clean) == "amount"


def test_an_hour_asked_in_bangla_is_a_time_not_a_count():
    """"কয়টা" (how many) begins "কয়টায়" (at what hour), and after a part of the day ("সকাল কয়টা",
    at what hour in the morning) it asks for the hour: neither may read as a count."""
    for q in ("এজেন্ট কয়টায় খোলে?", "agent koytay khole?", "দোকান সকাল কয়টা থেকে রাত কয়টা পর্যন্ত খোলা থাকে?"):
        assert question_types(q) == ["time"], q
    for q in ("প্রিয় নাম্বার কয়টা সেভ করা যায়?", "koyta number save kora jay?", "দিনে কয়টা লেনদেন করা যায়?"):
        assert question_types(q) == ["count"], q


def test_patterns_use_explicit_character_classes():
    """\\w, \\b, \\d and \\s depend on the Unicode database, which differs between the native
    Python and the browser's; the table must spell its classes out."""
    raw = open(os.path.join(os.path.dirname(answertypes.__file__), "..", "data", "answer_types.json"), encoding="utf-8").read()
    for escape in ("\\\\w", "\\\\b", "\\\\d", "\\\\s", "\\\\W", "\\\\B", "\\\\D", "\\\\S"):
        assert escape not in raw, escape


@pytest.mark.parametrize("question, expected", [
    # a story first, then the question: the type is read in the sentence that asks
    ("I send my mum 10k every month with Send Money. Am I earning reward points from that?", "yesno"),
    ("ভুল নাম্বারে ৮ হাজার টাকা গেছে। আপনারা কি টাকাটা ফেরত দিতে পারেন? না পারলে কী করার আছে?", "yesno"),
    ("My card was issued in Dubai. How much does it cost to add money with it?", "amount"),
    # one sentence: as before
    ("How much does it cost to cash out Tk 1,000?", "amount"),
])
def test_the_type_is_read_in_the_asking_sentences(question, expected):
    assert question_type(question) == expected


@pytest.mark.parametrize("sentence", [
    "Is it true?", "Is this real?", "is this legit?", "Is that right?", "is it genuine or fake?", "true or not?",
    "সত্যি?", "এটা কি আসল?", "এ কথা কি সত্যি?", "এটা কি ঠিক?", "সত্যি না মিথ্যা?",
    "sotti naki?", "eta ki asol?", "ata ki thik?",
])
def test_a_sentence_that_only_asks_whether_the_story_is_so(sentence):
    assert verifies_only(sentence)


@pytest.mark.parametrize("sentence", [
    # a word of what is asked besides the verifying one, or no verifying word
    "Is the fee right?", "Is the Shapla Pay app on my phone real?", "is this a scam?", "এটা কি প্রতারণা?",
    "ফি কি ঠিক আছে?", "Is that so?", "What is the right PIN?", "How do I check it?",
])
def test_a_sentence_that_asks_something_of_its_own_does_not_only_verify(sentence):
    assert not verifies_only(sentence)


def test_a_story_asked_only_whether_it_is_so_is_what_the_question_asks():
    # The story is what is asked ("Is it true that …?"): no sentence is the asked one, and the
    # verifying word is nothing to look for; the type is still read in the asking sentence.
    story = "A caller says I must send a 500 taka fee before my loan is approved. Is it true?"
    assert asks_to_verify(story) and asked_sentences(story) == [] and verifying_words(story) == {"true"}
    assert question_type(story) == "yesno"
    bangla = "একটা মেসেজ এসেছে যে আমি পুরস্কার জিতেছি। এটা কি আসল?"
    assert asks_to_verify(bangla) and asked_sentences(bangla) == [] and verifying_words(bangla) == {"আসল"}
    one = "guy on the phone says I should dial a code he reads out, is that legit"
    assert asks_to_verify(one) and verifying_words(one) == {"legit"}
    # a verifying word the story uses too stays a word of the question
    assert verifying_words("The agent says the real fee is 2%. Is it real?") == frozenset()
    # another asking sentence is still the asked one
    both = "I got an SMS saying I won a prize. Is it real? How do I report it?"
    assert not asks_to_verify(both) and asked_sentences(both) == ["How do I report it?"]
    # a question that asks something of its own is untouched
    plain = "I paid Tk 500 to an agent. Is the fee right?"
    assert not asks_to_verify(plain) and asked_sentences(plain) == ["Is the fee right?"] and not verifying_words(plain)


@pytest.mark.parametrize("question, expected", [
    # what to look at or check, or whether there is anything to do, asks what to do
    ("The OTP for logging in on my new phone is not arriving. What should I check?", "procedure"),
    ("I got my blocked account back after losing my phone. Is there anything I should do now?", "procedure"),
    ("Anything I should do about the app before I lend my phone?", "procedure"),
    ("the qr code at the shop is torn, how else can i pay them", "procedure"),
    ("পিন দেওয়ার আগে কী দেখে নেব?", "procedure"),
    ("টাকা আমার একাউন্টে আসে নাই। এখন কি করমু?", "procedure"),
    ("এটিএম থেকে টাকা তুলতে অ্যাপে কী করতে হয়?", "procedure"),
    # "কখনো" is "ever", no "when"; "পে-কে" is "to Shapla Pay", no "who"
    ("শাপলা পে কি কখনো এসএমএস পাঠিয়ে ওটিপি চায়?", "yesno"),
    ("টাকা ফেরত আনতে কি শাপলা পে-কে কোনো চার্জ দিতে হয়?", "yesno"),
    ("bidesh theke taka pathaile ki amar account e ashbe?", "yesno"),
    # unchanged: a real "when" and a real "who"
    ("টাকা কখন ফেরত আসবে?", "time"),
    ("লাইসেন্স কে দেয়?", "person"),
])
def test_later_questions_are_read_for_what_they_ask(question, expected):
    assert question_type(question) == expected


@pytest.mark.parametrize("question, types", [
    ("Agent point এ cash out করলে কত percent charge কাটে?", ["percent"]),
    ("Agent point এ cash out করলে কত charge কাটে?", ["amount"]),
    ("App কত minute use না করলে auto logout হয়ে যায়?", ["duration"]),
    ("wallet এ আসতে কত time লাগে?", ["duration"]),
    ("Shapla Pay এর PIN কত digit এর?", ["count"]),
    ("Send money এর daily limit আর monthly limit কত?", ["amount"]),
])
def test_a_code_mixed_question_types_its_english_loanwords(question, types):
    # A Bangla question types the loanwords of the Bangla cues (পার্সেন্ট, মিনিট, টাইম, ডিজিট, চার্জ, লিমিট) in English
    # letters: "কত percent" asked nothing before, and the answer was withheld at 0.27.
    assert question_types(question) == types


def test_a_bangla_sentence_naming_things_in_english_is_asked_in_bangla():
    assert analyzer.asked_lang("cash out charge কত?", "en") == "bn"
    assert analyzer.asked_lang("Cash in করতে কি কোনো fee লাগে?", "bn") == "bn"  # "in" names the service
    assert analyzer.asked_lang("How many টাকা can I cash in in one day?", "en") == "en"
    assert analyzer.asked_lang("What কাগজপত্র do I need?", "en") == "en"
    assert analyzer.asked_lang("How much is the fee?", "en") == "en" and analyzer.asked_lang("nano loan koto?", "en") == "en"
