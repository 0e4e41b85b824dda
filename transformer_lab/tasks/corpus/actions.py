"""Corpus templates about doing things: likes, food, present and past tenses, going places."""

from __future__ import annotations

from .grammar import (
    AVOIR,
    ETRE,
    GIRLS,
    HE,
    MARY,
    ME,
    PRONOUNS,
    SHE,
    THEY,
    TOM,
    WE,
    YOU,
    cap,
    clause,
    rot,
)

# (English, 5 French forms of the present, English 3rd-person form)
LIKE_VERBS = [
    ("like", "likes", ["aime", "aimes", "aime", "aimons", "aiment"]),
    ("love", "loves", ["adore", "adores", "adore", "adorons", "adorent"]),
    ("hate", "hates", ["déteste", "détestes", "déteste", "détestons", "détestent"]),
]
LIKED = [
    ("cats", "les chats"), ("dogs", "les chiens"), ("birds", "les oiseaux"),
    ("horses", "les chevaux"), ("apples", "les pommes"), ("bananas", "les bananes"),
    ("carrots", "les carottes"), ("cookies", "les biscuits"), ("books", "les livres"),
    ("movies", "les films"), ("flowers", "les fleurs"), ("tea", "le thé"), ("coffee", "le café"),
    ("milk", "le lait"), ("chocolate", "le chocolat"), ("cheese", "le fromage"),
    ("music", "la musique"), ("soup", "la soupe"), ("water", "l'eau"), ("rice", "le riz"),
    ("fish", "le poisson"), ("school", "l'école"), ("winter", "l'hiver"), ("summer", "l'été"),
    ("snow", "la neige"), ("rain", "la pluie"), ("math", "les maths"), ("sports", "le sport"),
]


def likes() -> list[tuple[str, str]]:
    pairs = []
    subjects = PRONOUNS + [TOM, MARY]
    for i, (en_obj, fr_obj) in enumerate(LIKED):
        for j, (en, en3, forms) in enumerate(LIKE_VERBS):
            for s in rot(subjects, 3 * i + j, 2):
                verb = en3 if s.third else en
                pairs.append((f"{s.en} {verb} {en_obj}.", f"{cap(clause(s, forms[s.person]))} {fr_obj}."))
        for s in rot(subjects, i + 5, 2):
            fr = cap(clause(s, LIKE_VERBS[0][2][s.person], neg=True))
            pairs.append((f"{s.do_neg} like {en_obj}.", f"{fr} {fr_obj}."))
    return pairs


# (English object, French object with its partitive or article)
EATEN = [
    ("bread", "du pain"), ("rice", "du riz"), ("fish", "du poisson"), ("meat", "de la viande"),
    ("cheese", "du fromage"), ("soup", "de la soupe"), ("chicken", "du poulet"),
    ("salad", "de la salade"), ("apples", "des pommes"), ("eggs", "des œufs"),
    ("fruit", "des fruits"), ("pasta", "des pâtes"), ("vegetables", "des légumes"),
    ("cake", "du gâteau"),
]
DRUNK = [
    ("water", "de l'eau"), ("milk", "du lait"), ("tea", "du thé"), ("coffee", "du café"),
    ("juice", "du jus"), ("wine", "du vin"), ("beer", "de la bière"),
]
WANTED = [
    ("an apple", "une pomme"), ("a coffee", "un café"), ("some water", "de l'eau"),
    ("a book", "un livre"), ("a dog", "un chien"), ("a cat", "un chat"), ("a car", "une voiture"),
    ("some tea", "du thé"), ("some bread", "du pain"), ("a new bike", "un nouveau vélo"),
    ("a glass of water", "un verre d'eau"), ("a sandwich", "un sandwich"),
    ("an ice cream", "une glace"), ("a house", "une maison"),
]
ATE = [
    ("an apple", "une pomme"), ("bread", "du pain"), ("fish", "du poisson"),
    ("a cake", "un gâteau"), ("the cookies", "les biscuits"), ("some soup", "de la soupe"),
]
MANGER = ["mange", "manges", "mange", "mangeons", "mangent"]
BOIRE = ["bois", "bois", "boit", "buvons", "boivent"]
VOULOIR = ["veux", "veux", "veut", "voulons", "veulent"]


def food() -> list[tuple[str, str]]:
    pairs = []
    subjects = PRONOUNS + [TOM, MARY]
    for table, (en, en3), forms, k in [
        (EATEN, ("eat", "eats"), MANGER, 2),
        (DRUNK, ("drink", "drinks"), BOIRE, 3),
        (WANTED, ("want", "wants"), VOULOIR, 2),
    ]:
        for i, (en_obj, fr_obj) in enumerate(table):
            for s in rot(subjects, 2 * i, k):
                verb = en3 if s.third else en
                pairs.append((f"{s.en} {verb} {en_obj}.", f"{cap(clause(s, forms[s.person]))} {fr_obj}."))
    for i, (en_obj, fr_obj) in enumerate(ATE):
        for s in rot(subjects, i, 2):
            pairs.append((f"{s.en} ate {en_obj}.", f"{cap(clause(s, AVOIR[s.person]))} mangé {fr_obj}."))
    return pairs


# (English base, English 3rd person, English past, French present forms, French participle)
VERBS = [
    ("sing", "sings", "sang", ["chante", "chantes", "chante", "chantons", "chantent"], "chanté"),
    ("dance", "dances", "danced", ["danse", "danses", "danse", "dansons", "dansent"], "dansé"),
    ("swim", "swims", "swam", ["nage", "nages", "nage", "nageons", "nagent"], "nagé"),
    ("work", "works", "worked",
     ["travaille", "travailles", "travaille", "travaillons", "travaillent"], "travaillé"),
    ("walk", "walks", "walked", ["marche", "marches", "marche", "marchons", "marchent"], "marché"),
    ("play", "plays", "played", ["joue", "joues", "joue", "jouons", "jouent"], "joué"),
    ("cook", "cooks", "cooked",
     ["cuisine", "cuisines", "cuisine", "cuisinons", "cuisinent"], "cuisiné"),
    ("study", "studies", "studied", ["étudie", "étudies", "étudie", "étudions", "étudient"], "étudié"),
    ("listen", "listens", "listened",
     ["écoute", "écoutes", "écoute", "écoutons", "écoutent"], "écouté"),
    ("wait", "waits", "waited",
     ["attends", "attends", "attend", "attendons", "attendent"], "attendu"),
    ("sleep", "sleeps", "slept", ["dors", "dors", "dort", "dormons", "dorment"], "dormi"),
    ("read", "reads", None, ["lis", "lis", "lit", "lisons", "lisent"], "lu"),
    ("write", "writes", "wrote", ["écris", "écris", "écrit", "écrivons", "écrivent"], "écrit"),
    ("run", "runs", "ran", ["cours", "cours", "court", "courons", "courent"], "couru"),
    ("laugh", "laughs", "laughed", ["ris", "ris", "rit", "rions", "rient"], "ri"),
    ("cry", "cries", "cried", ["pleure", "pleures", "pleure", "pleurons", "pleurent"], "pleuré"),
    ("lie", "lies", "lied", ["mens", "mens", "ment", "mentons", "mentent"], "menti"),
    ("win", "wins", "won", ["gagne", "gagnes", "gagne", "gagnons", "gagnent"], "gagné"),
    ("lose", "loses", "lost", ["perds", "perds", "perd", "perdons", "perdent"], "perdu"),
    ("smoke", "smokes", "smoked", ["fume", "fumes", "fume", "fumons", "fument"], "fumé"),
    ("drive", "drives", "drove",
     ["conduis", "conduis", "conduit", "conduisons", "conduisent"], "conduit"),
    ("pay", "pays", "paid", ["paie", "paies", "paie", "payons", "paient"], "payé"),
    ("help", "helps", "helped", ["aide", "aides", "aide", "aidons", "aident"], "aidé"),
]
# "I forgot." / "I tried." etc.: past only (their present reads oddly without an object)
PAST_ONLY = [
    ("tried", "essayé"), ("finished", "fini"), ("understood", "compris"), ("forgot", "oublié"),
    ("called", "appelé"), ("ate", "mangé"),
]


def present() -> list[tuple[str, str]]:
    pairs = []
    for i, (en, en3, _, forms, _) in enumerate(VERBS):
        for s in PRONOUNS:
            pairs.append((f"{s.en} {en3 if s.third else en}.", f"{cap(clause(s, forms[s.person]))}."))
        s = rot(PRONOUNS + [TOM, MARY], i, 1)[0]
        pairs.append((f"{s.do_neg} {en}.", f"{cap(clause(s, forms[s.person], neg=True))}."))
    return pairs


def past() -> list[tuple[str, str]]:
    pairs = []
    done = [(v[2], v[4]) for v in VERBS if v[2] is not None] + PAST_ONLY
    others = [YOU, HE, SHE, WE, THEY, TOM, MARY]
    for i, (en, participle) in enumerate(done):
        for s in [ME] + rot(others, 2 * i, 3):  # always "I ...": "I lost." must be there
            pairs.append((f"{s.en} {en}.", f"{cap(clause(s, AVOIR[s.person]))} {participle}."))
    return pairs


# Verbs whose past takes être: the participle agrees with the subject (m, f, m pl, f pl).
ETRE_PAST = [
    ("left", "parti"), ("came", "venu"), ("fell", "tombé"), ("arrived", "arrivé"),
    ("stayed", "resté"), ("went out", "sorti"), ("came back", "revenu"),
]
PLURAL_ENDINGS = ["", "e", "s", "es"]


def past_etre() -> list[tuple[str, str]]:
    pairs = []
    subjects = PRONOUNS + [TOM, MARY, GIRLS]
    for en, participle in ETRE_PAST:
        for s in subjects:
            fr = f"{cap(clause(s, ETRE[s.person]))} {participle}{PLURAL_ENDINGS[s.agr]}."
            pairs.append((f"{s.en} {en}.", fr))
    for s in subjects:  # "He went home." -> "Il est rentré chez lui."
        fr = f"{cap(clause(s, ETRE[s.person]))} rentré{PLURAL_ENDINGS[s.agr]} chez {s.stress}."
        pairs.append((f"{s.en} went home.", fr))
    return pairs


# (English destination, French with à + article contracted: au, à la, à l')
PLACES = [
    ("the park", "au parc"), ("school", "à l'école"), ("the beach", "à la plage"),
    ("the market", "au marché"), ("the station", "à la gare"), ("the movies", "au cinéma"),
    ("Paris", "à Paris"), ("the hospital", "à l'hôpital"), ("the library", "à la bibliothèque"),
    ("the zoo", "au zoo"), ("the bank", "à la banque"), ("the airport", "à l'aéroport"),
    ("bed", "au lit"), ("work", "au travail"),
]
ALLER = ["vais", "vas", "va", "allons", "vont"]


def places() -> list[tuple[str, str]]:
    pairs = []
    for i, (en, fr) in enumerate(PLACES):
        for s in rot(PRONOUNS, i, 3):
            pairs.append((f"{s.be_c} going to {en}.", f"{cap(clause(s, ALLER[s.person]))} {fr}."))
        prep = "in" if en in ("Paris", "bed") else "at"  # "I'm in bed.", "I'm at school."
        for s in rot(PRONOUNS + [TOM, MARY], i + 1, 2):
            pairs.append((f"{s.be_c} {prep} {en}.", f"{cap(clause(s, ETRE[s.person]))} {fr}."))
    for s in PRONOUNS + [TOM, MARY, GIRLS]:  # "I'm home." -> "Je suis chez moi."
        pairs.append((f"{s.be_c} home.", f"{cap(clause(s, ETRE[s.person]))} chez {s.stress}."))
    return pairs
