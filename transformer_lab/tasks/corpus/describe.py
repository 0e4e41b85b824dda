"""Corpus templates that describe people and things: être/avoir + adjective, ages, colours, family."""

from __future__ import annotations

from .grammar import (
    AVOIR,
    ETRE,
    HE,
    MARY,
    ME,
    PEOPLE,
    PRONOUNS,
    SHE,
    THEY,
    TOM,
    VOWELS,
    WE,
    cap,
    clause,
    rot,
)

# (English, m, f, m pl, f pl)
ADJECTIVES = [
    ("calm", "calme", "calme", "calmes", "calmes"),
    ("tall", "grand", "grande", "grands", "grandes"),
    ("short", "petit", "petite", "petits", "petites"),
    ("tired", "fatigué", "fatiguée", "fatigués", "fatiguées"),
    ("happy", "heureux", "heureuse", "heureux", "heureuses"),
    ("sad", "triste", "triste", "tristes", "tristes"),
    ("sick", "malade", "malade", "malades", "malades"),
    ("busy", "occupé", "occupée", "occupés", "occupées"),
    ("ready", "prêt", "prête", "prêts", "prêtes"),
    ("rich", "riche", "riche", "riches", "riches"),
    ("poor", "pauvre", "pauvre", "pauvres", "pauvres"),
    ("young", "jeune", "jeune", "jeunes", "jeunes"),
    ("old", "vieux", "vieille", "vieux", "vieilles"),
    ("strong", "fort", "forte", "forts", "fortes"),
    ("weak", "faible", "faible", "faibles", "faibles"),
    ("smart", "intelligent", "intelligente", "intelligents", "intelligentes"),
    ("funny", "drôle", "drôle", "drôles", "drôles"),
    ("shy", "timide", "timide", "timides", "timides"),
    ("kind", "gentil", "gentille", "gentils", "gentilles"),
    ("glad", "content", "contente", "contents", "contentes"),
    ("careful", "prudent", "prudente", "prudents", "prudentes"),
    ("wet", "mouillé", "mouillée", "mouillés", "mouillées"),
    ("alone", "seul", "seule", "seuls", "seules"),
    ("free", "libre", "libre", "libres", "libres"),
    ("crazy", "fou", "folle", "fous", "folles"),
    ("nervous", "nerveux", "nerveuse", "nerveux", "nerveuses"),
    ("married", "marié", "mariée", "mariés", "mariées"),
    ("lost", "perdu", "perdue", "perdus", "perdues"),
    ("late", "en retard", "en retard", "en retard", "en retard"),
    ("angry", "fâché", "fâchée", "fâchés", "fâchées"),
    ("sure", "sûr", "sûre", "sûrs", "sûres"),
    ("serious", "sérieux", "sérieuse", "sérieux", "sérieuses"),
    ("brave", "courageux", "courageuse", "courageux", "courageuses"),
    ("polite", "poli", "polie", "polis", "polies"),
    ("lazy", "paresseux", "paresseuse", "paresseux", "paresseuses"),
    ("awake", "réveillé", "réveillée", "réveillés", "réveillées"),
]

# English adjective -> French noun used with avoir ("I'm hungry." -> "J'ai faim.")
AVOIR_IDIOMS = [
    ("hungry", "faim"), ("thirsty", "soif"), ("cold", "froid"), ("hot", "chaud"),
    ("scared", "peur"), ("right", "raison"), ("wrong", "tort"), ("sleepy", "sommeil"),
]


def be_adjective() -> list[tuple[str, str]]:
    pairs = []
    for i, (en, *forms) in enumerate(ADJECTIVES):
        for s in PRONOUNS:
            pairs.append((f"{s.be_c} {en}.", f"{cap(clause(s, ETRE[s.person]))} {forms[s.agr]}."))
        for s in rot(PRONOUNS, i, 1):
            pairs.append((f"{s.be} {en}.", f"{cap(clause(s, ETRE[s.person]))} {forms[s.agr]}."))
        for s in rot(PEOPLE, i, 2):
            pairs.append((f"{s.be} {en}.", f"{cap(clause(s, ETRE[s.person]))} {forms[s.agr]}."))
        for s in rot(PRONOUNS, i + 3, 2):
            fr = cap(clause(s, ETRE[s.person], neg=True))
            pairs.append((f"{s.be_neg} {en}.", f"{fr} {forms[s.agr]}."))
    return pairs


def avoir_idioms() -> list[tuple[str, str]]:
    pairs = []
    for i, (en, noun) in enumerate(AVOIR_IDIOMS):
        for s in PRONOUNS:
            pairs.append((f"{s.be_c} {en}.", f"{cap(clause(s, AVOIR[s.person]))} {noun}."))
        pairs.append((f"I am {en}.", f"J'ai {noun}."))
        for s in rot(PRONOUNS + [TOM, MARY], i, 2):
            fr = cap(clause(s, AVOIR[s.person], neg=True))
            pairs.append((f"{s.be_neg} {en}.", f"{fr} {noun}."))
    return pairs


NUMBERS = [
    ("one", "un"), ("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"),
    ("six", "six"), ("seven", "sept"), ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"),
    ("eleven", "onze"), ("twelve", "douze"), ("twenty", "vingt"), ("thirty", "trente"),
    ("forty", "quarante"), ("fifty", "cinquante"),
]


def ages() -> list[tuple[str, str]]:
    subjects = [ME, HE, SHE, TOM, MARY]
    pairs = []
    for i, (en, fr) in enumerate(NUMBERS[4:]):  # "I'm five." and up
        for s in rot(subjects, i, 3):
            pairs.append((f"{s.be_c} {en}.", f"{cap(clause(s, AVOIR[s.person]))} {fr} ans."))
    return pairs


# (English with article, French noun, gender "m"/"f")
OWNED = [
    ("a dog", "chien", "m"), ("a cat", "chat", "m"), ("a car", "voiture", "f"),
    ("a bike", "vélo", "m"), ("a house", "maison", "f"), ("a brother", "frère", "m"),
    ("a sister", "sœur", "f"), ("a book", "livre", "m"), ("a pen", "stylo", "m"),
    ("a key", "clé", "f"), ("an idea", "idée", "f"), ("a question", "question", "f"),
    ("a plan", "plan", "m"), ("a job", "travail", "m"), ("a computer", "ordinateur", "m"),
    ("a phone", "téléphone", "m"), ("a garden", "jardin", "m"), ("an umbrella", "parapluie", "m"),
    ("a ticket", "billet", "m"), ("a map", "carte", "f"),
]


def have() -> list[tuple[str, str]]:
    pairs = []
    subjects = PRONOUNS + [TOM, MARY]
    for i, (en, noun, gender) in enumerate(OWNED):
        art = "un" if gender == "m" else "une"
        for s in rot(subjects, i, 3):
            verb = "has" if s.third else "have"
            pairs.append((f"{s.en} {verb} {en}.", f"{cap(clause(s, AVOIR[s.person]))} {art} {noun}."))
        # after a negation un/une become de (d' before a vowel)
        s = subjects[(i + 4) % len(subjects)]
        de = "d'" if noun[0] in VOWELS else "de "
        fr = cap(clause(s, AVOIR[s.person], neg=True))
        pairs.append((f"{s.do_neg} have {en}.", f"{fr} {de}{noun}."))
    return pairs


COUNTED = [
    ("cats", "chats"), ("dogs", "chiens"), ("brothers", "frères"), ("sisters", "sœurs"),
    ("books", "livres"), ("children", "enfants"), ("apples", "pommes"), ("friends", "amis"),
    ("cars", "voitures"), ("birds", "oiseaux"),
]


def counting() -> list[tuple[str, str]]:
    pairs = []
    subjects = [ME, HE, SHE, WE, THEY, TOM, MARY]
    for i, (en_num, fr_num) in enumerate(NUMBERS[1:10]):  # two .. ten
        for j, (en, fr) in enumerate(COUNTED):
            s = subjects[(i + 2 * j) % len(subjects)]
            verb = "has" if s.third else "have"
            pairs.append((f"{s.en} {verb} {en_num} {en}.", f"{cap(clause(s, AVOIR[s.person]))} {fr_num} {fr}."))
    return pairs


# (English singular, English plural, French singular, French plural, gender)
THINGS = [
    ("car", "cars", "voiture", "voitures", "f"), ("bike", "bikes", "vélo", "vélos", "m"),
    ("house", "houses", "maison", "maisons", "f"), ("dog", "dogs", "chien", "chiens", "m"),
    ("cat", "cats", "chat", "chats", "m"), ("shirt", "shirts", "chemise", "chemises", "f"),
    ("door", "doors", "porte", "portes", "f"), ("ball", "balls", "ballon", "ballons", "m"),
    ("hat", "hats", "chapeau", "chapeaux", "m"), ("flower", "flowers", "fleur", "fleurs", "f"),
    ("pen", "pens", "stylo", "stylos", "m"), ("box", "boxes", "boîte", "boîtes", "f"),
]
COLOURS = [
    ("red", "rouge", "rouge", "rouges", "rouges"), ("blue", "bleu", "bleue", "bleus", "bleues"),
    ("green", "vert", "verte", "verts", "vertes"), ("black", "noir", "noire", "noirs", "noires"),
    ("white", "blanc", "blanche", "blancs", "blanches"),
    ("yellow", "jaune", "jaune", "jaunes", "jaunes"), ("grey", "gris", "grise", "gris", "grises"),
    ("pink", "rose", "rose", "roses", "roses"),
]


def colours() -> list[tuple[str, str]]:
    pairs = []
    for i, (en, en_pl, fr, fr_pl, g) in enumerate(THINGS):
        f = g == "f"
        for en_c, *forms in rot(COLOURS, i, 5):
            pairs.append((f"The {en} is {en_c}.", f"{'La' if f else 'Le'} {fr} est {forms[f]}."))
        for en_c, *forms in rot(COLOURS, i + 5, 3):
            pairs.append((f"The {en_pl} are {en_c}.", f"Les {fr_pl} sont {forms[2 + f]}."))
        for en_c, *forms in rot(COLOURS, i + 2, 2):
            art = "an" if en_c[0] in "aeiou" else "a"
            fr_art = "une" if f else "un"
            pairs.append((f"It's {art} {en_c} {en}.", f"C'est {fr_art} {fr} {forms[f]}."))
    return pairs


# (English, French noun, gender "m"/"f"/"p")
FAMILY = [
    ("mother", "mère", "f"), ("father", "père", "m"), ("brother", "frère", "m"),
    ("sister", "sœur", "f"), ("son", "fils", "m"), ("daughter", "fille", "f"),
    ("wife", "femme", "f"), ("husband", "mari", "m"), ("uncle", "oncle", "m"),
    ("aunt", "tante", "f"), ("grandmother", "grand-mère", "f"),
    ("grandfather", "grand-père", "m"), ("cousin", "cousin", "m"), ("baby", "bébé", "m"),
    ("parents", "parents", "p"), ("children", "enfants", "p"),
]


def possessive(noun: str, gender: str, person: str) -> str:
    """mon/ma/mes (person "m") or ton/ta/tes ("t"); ma becomes mon before a vowel."""
    if gender == "p":
        return f"{person}es {noun}"
    if gender == "f" and noun[0] not in VOWELS:
        return f"{person}a {noun}"
    return f"{person}on {noun}"


def family() -> list[tuple[str, str]]:
    pairs = []
    for en, noun, g in FAMILY:
        my, your, plural = possessive(noun, g, "m"), possessive(noun, g, "t"), g == "p"
        if plural:
            pairs += [
                (f"These are my {en}.", f"Ce sont {my}."),
                (f"Where are my {en}?", f"Où sont {my} ?"),
                (f"I miss my {en}.", f"{cap(my)} me manquent."),
            ]
        else:
            pairs += [
                (f"This is my {en}.", f"C'est {my}."),
                (f"Where is my {en}?", f"Où est {my} ?"),
                (f"I miss my {en}.", f"{cap(my)} me manque."),
                (f"{'She' if g == 'f' else 'He'}'s my {en}.", f"C'est {my}."),
            ]
        pairs += [(f"I love my {en}.", f"J'aime {my}."), (f"Call your {en}.", f"Appelle {your}.")]
    return pairs
