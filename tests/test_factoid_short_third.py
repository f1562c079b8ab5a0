"""Short answers to encyclopaedic factoid questions, a third round (`answer.short`, `question.factoid`,
`answer.answerer`): the value of the other quoted sentence when the best states none, the phrase
that says how someone died, what a thing is made or named from, by what means, or what an animal
eats, a definition asked "exactly", "include" read as a copula, an initialism that answers no who,
a which-one question typed by a word inside a name, and nearness within one sentence. The
sentences are made up for the tests."""

from dataclasses import replace

import pytest

from raglab.answer.answerer import answer
from raglab.answer.candidates import text_info
from raglab.answer.sentences import model
from raglab.answer.short import short_spans
from raglab.corpus.articles import parse_article
from raglab.corpus.chunking import chunk_document
from raglab.question.factoid import how_phrase
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type


def shorts(question: str, text: str, n: int = 1, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, n)
    return [text[s:e] for s, e in spans]


def asked(question: str, article: str, m=None):
    doc = parse_article("w", article)
    return answer(analyze(question), chunk_document(doc, "recursive"), lambda t: 1.0, threshold=0.0,
                  question=question, docs={"w": doc}, m=m)


def quoting_two(question: str, article: str):
    # Whether the runner-up is quoted at all is the fitted model's margin (`Model.runner`); what is
    # tested is the short answer when it is: the served model with every runner-up quoted.
    return asked(question, article, replace(model(), adjacent=0.0, runner=0.0))


@pytest.mark.parametrize("question, article, want", [
    # The best sentence names only the asked firm and its town; the founders are in the next one.
    ("Who founded Quill Press?", "# Quill Press\n\nQuill Press (QP) is an independent publisher of poetry based in "
     "Leeds, England.\nIt was founded in York by Ada Lind and Tom Orr in 1991, and later taken over by Orr.\n",
     "Ada Lind and Tom Orr"),
    # "American" after "by" is the programmer's people, not who developed it.
    ("Who created the game Castle Quest?", "# Castle Quest\n\nThe Castle Quest series of video games started with the "
     "1981 adventure game Castle Quest.\nIt was developed by American programmer Silas Berg, a pioneer of the genre.\n",
     "Silas Berg"),
])
def test_the_other_quoted_sentence_gives_the_value_the_best_lacks(question, article, want):
    a = quoting_two(question, article)
    assert len(a.quotes) == 2
    assert [s.text for s in a.short_answers] == [want]


@pytest.mark.parametrize("question, text, want", [
    ("How did Tom Orr die?", "He died at the County Hospital, Exeter, of a brain haemorrhage, on 3 May 1965.",
     "a brain haemorrhage"),
    ("How did Ada Lind die?", "Ada Lind died in 1914 at the age of 75, probably from natural causes.", "natural causes"),
    ("How is kelp ink made?", "Kelp ink is a dye prepared from the seaweed Laminaria, also known as oarweed.",
     "from the seaweed Laminaria"),
    ("How did Norland get its name?", "Norland is a name derived from the name of the town Norby, which takes its name "
     "from the Nor River.", "from the Nor River"),
    ("How did Brutus betray Caesar?", "Brutus betrayed Caesar in the Senate by stabbing him with the others.[3] It is "
     "well known.", "by stabbing him with the others"),
    ("What do sawbills eat?", "Sawbills are hunters that feed on fish, shrimp and snails.[2] They hunt at dawn.",
     "fish, shrimp and snails"),
])
def test_a_phrase_says_how_or_what(question, text, want):
    assert question_type(question) == "other"
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text", [
    ("How did Tom Orr die?", "Tom Orr died at the age of 75 in Paris."),  # no cause: the age is none
    ("How did Tom Orr die?", "Tom Orr died of Paris fever."),  # capitalised: a place or a name, no cause
    ("How do I change my PIN?", "You change it by opening the menu."),  # a customer's how: the steps, not a phrase
    ("What do sawbills eat?", "Sawbills nest on cliffs."),
])
def test_no_phrase_where_the_sentence_says_none(question, text):
    assert how_phrase(question, text, [(0, 4)]) is None


def test_a_definition_asked_exactly_and_cut_before_an_appositive():
    text = "Indie rock (often called indie) is music produced apart from major labels, a process that began in 1980."
    assert shorts("What exactly is indie rock?", text) == ["music produced apart from major labels"]


def test_include_after_the_asked_word_reads_as_a_copula():
    text = "Grain is the main crop, and major exports include chemicals, farm machinery, and timber."
    assert shorts("What is Norland main export?", text) == ["chemicals, farm machinery"]


def test_an_initialism_does_not_answer_who():
    text = "On 3 May 2011, Justice Ada Lind of the High Court ruled in Orr's case that the rule barring FDHs was void."
    # without the court she sits on (TyDi's English short answers, the round after: a person without their body)
    assert shorts("Who was the judge in Orr's case?", text) == ["Justice Ada Lind"]


def test_a_which_one_question_typed_by_a_word_in_a_name_gets_the_name():
    # "Max" typed the question as an amount ("max"); the sentence says "first novel", so a name answers.
    question = "What was Max Berg's first novel?"
    assert question_type(question) == "amount"
    assert shorts(question, "Another fruit of the trip was Berg's first novel, Quiet Harbour, which appeared in 1934.") \
        == ["Quiet Harbour"]


def test_a_value_is_near_a_question_word_of_its_own_sentence():
    # "Eastby" of the next sentence (over a footnoted full stop) sits right after 1889, nearer than
    # "built" is to 1895 (ranked across sentences, 1889 won): 1889 is near no question word of its own
    # sentence, so the year the bridge was built is the answer.
    text = "The bridge was finally built in the year 1895 over the river, a flood came in 1889.[2] Eastby is a town."
    assert shorts("When was the bridge at Eastby built?", text) == ["1895"]


@pytest.mark.parametrize("question, text, want", [
    ("How is kelp ink made?", "Kelp ink is a dye prepared from the seaweed (Laminaria digitata) in Norway.",
     "from the seaweed"),
    ("How did Tom Orr die?", "Tom Orr died of cancer (aged 60) in Leeds.", "cancer"),
    ("What do sawbills eat?", "Sawbills feed on fish [citation needed].", "fish"),
    ("How did Norland get its name?", "Norland takes its name from the Nor River (Old Norse: Nórá).", "from the Nor River"),
])
def test_a_phrase_stops_before_a_bracket_without_the_space(question, text, want):
    assert shorts(question, text) == [want]


def test_a_phrase_after_a_preposition_has_a_word():
    assert how_phrase("How did Norland get its name?", "Norland is named after  (the river).", []) is None


def test_died_is_a_word_not_the_start_of_diet_or_diesel():
    assert how_phrase("How did Tom Orr die?", "Tom Orr kept a strict diet of fish from the river.", []) is None
    assert how_phrase("How did Tom Orr die?", "Tom Orr sold diesel made from old oil.", []) is None


def test_a_first_name_after_by_is_a_name():
    # A people's adjective after "by" comes before a role and a name; "Brian" ends like one.
    assert shorts("Who wrote the Quill book?", "The Quill book was written by Brian himself.") == ["Brian"]
    assert shorts("Who created Castle Quest?", "Castle Quest was developed by American programmer Silas Berg.") \
        == ["Silas Berg"]
