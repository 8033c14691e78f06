"""Writes bench/data/changed-facts-fresh.json: a fresh English changed-facts set, kept as an unseen check.

Three chats written for rawrag without looking at how the app answers (no copied
text, and no person, place, employer or pet of the other changed-facts sets), in
LoCoMo's format like ``bench/data/changed-facts.json``: friends in Porto, Braga
and Cardiff, a sister in Aberdeen and her brother in Utrecht, two former
colleagues in Valencia and Bologna, each over a year of 2025-2026. Facts change
in them (a move, a new job, a date moved twice, a cancelled plan, a new partner
or an engagement, a new phone number or e-mail, an instrument, a football team,
a hobby, a race, a renamed or new pet), about half said with a change word
("switched", "moved", "cancelled", "now"), half only as the new state ("Day four
in Braga and the café downstairs already knows my order"); the old state comes
back in passing now and then ("I miss the Porto bakeries"), and a change is
sometimes told in answer to a question ("Still at Admiral?" "Nope, left in
August").

Notes as in ``bench/_make_changed_facts.py``: one per question, ``asks_past``
true where the right answer is the ``stale`` value, ``cue`` whether a latest
statement holds an English change word (the pattern tests/test_changed_facts_set.py
uses). A turn is written with a label where a note cites it; the dia ids are
worked out from the labels.

    python bench/_make_changed_facts_fresh.py   # rewrites the file
"""

from __future__ import annotations

import json
from pathlib import Path

from _make_changed_facts import CUE as CUE_BY_LANGUAGE
from _make_changed_facts import labelled_conversation

DATA = Path(__file__).resolve().parent / "data"


def q(question: str, answer: str, kind: str, latest: str, latest_at: list[str], stale: str, stale_at: list[str],
      *, past: bool = False, category: int | None = None, intermediate: str | None = None,
      intermediate_at: list[str] | None = None, also: dict | None = None) -> dict:
    return {"question": question, "answer": answer, "kind": kind, "latest": latest, "latest_at": latest_at,
            "stale": stale, "stale_at": stale_at, "past": past, "category": category,
            "intermediate": intermediate, "intermediate_at": intermediate_at or [], "also": also}


def sample(sample_id: str, chat: tuple, questions: list[dict], unanswerable: list[dict],
           language: str = "en") -> dict:
    """A LoCoMo sample with its notes; ``language`` picks the change words for ``cue``."""
    conv, where, said = chat
    qa, notes = [], []
    for index, item in enumerate(questions):
        latest = [where[x] for x in item["latest_at"]]
        stale = [where[x] for x in item["stale_at"]]
        middle = [where[x] for x in item["intermediate_at"]]
        evidence = stale + middle + latest if item["past"] else latest
        category = item["category"] or (2 if item["kind"] in ("date moved twice", "cancelled") else 4)
        qa.append({"question": item["question"], "answer": item["answer"], "evidence": evidence,
                   "category": category})
        note = {"q": index, "kind": item["kind"], "asks_past": item["past"],
                "cue": any(CUE_BY_LANGUAGE[language].search(said[d]) for d in latest),
                "latest": item["latest"], "latest_evidence": latest,
                "stale": item["stale"], "stale_evidence": stale}
        if item["intermediate"]:
            note["intermediate"] = item["intermediate"]
            note["intermediate_evidence"] = middle
        if item["also"]:
            note["also"] = item["also"]
        notes.append(note)
    return {"sample_id": sample_id, "conversation": conv, "qa": qa, "changed_facts_notes": notes,
            "language": language, "unanswerable": unanswerable}


# -- fresh-1: Beatriz (Porto, then Braga) and Callum (Cardiff), friends --------

BEA, CAL = "Beatriz", "Callum"
CHAT_1 = labelled_conversation(BEA, CAL, [
    ("8:20 pm on 2 February, 2025", [
        (CAL, "Bea! Happy belated birthday, did you get my voice note?"),
        (BEA, "I did, the singing was... brave. Thank you 😂"),
        (CAL, "Brave is the kindest word anyone's ever used for my singing. How's Porto?"),
        (BEA, "Raining sideways. Porto in February is all umbrellas and soup, and I still love it.", "porto"),
        (CAL, "Cardiff's the same minus the soup. Ffion made me do dry January and I'm still sulking about it.",
         "ffion"),
        (BEA, "Ha! Did you last the whole month?"),
        (CAL, "Till the 29th. Wales were playing, it doesn't count."),
        (BEA, "Totally doesn't. Big news here: they've finally given me a date for the knee op. 14 March!",
         "op1"),
        (CAL, "At last! How long were you on the list?"),
        (BEA, "Eleven months. I'll believe it when I'm on the table."),
        (CAL, "I'll send grapes. Got to run, Admiral has me on the late claims shift all week.", "admiral"),
        (BEA, "Poor you. Go and answer calls about dented hatchbacks."),
        (CAL, "Then band practice on Thursday. The trumpet section is two people and one of them is me.",
         "trumpet"),
        (BEA, "And the other one is the good one, I assume."),
    ]),
    ("7:45 pm on 9 March, 2025", [
        (BEA, "Guess who got a call from the hospital this morning"),
        (CAL, "Uh oh. That doesn't sound like good news"),
        (BEA, "They've pushed the op back to the 2nd of May. Something about the surgeon being on leave.", "op2"),
        (CAL, "After all that waiting! Are you OK?"),
        (BEA, "Mostly annoyed. I'd already bought the crutches."),
        (CAL, "Practise on them. Crutch races round the flat."),
        (BEA, "Ha. Also save my number, WhatsApp keeps logging me out: 912 345 678", "phone1"),
        (CAL, "Saved. And Lyon! I've found flights from Cardiff for Friday the 10th of October. Still in?",
         "lyon1"),
        (BEA, "So in. I'll fly from Porto the same day and meet you at the airport."),
        (CAL, "Two nights, the old town, far too much cheese. Perfect."),
        (BEA, "And a quenelle. A colleague says I'm not allowed back without eating a quenelle."),
        (CAL, "No idea what that is but I'm in."),
    ]),
    ("9:10 pm on 27 April, 2025", [
        (CAL, "How's the knee? Is it still the 2nd?"),
        (BEA, "Nope. New letter from the hospital this week: 19 June, 8am, nothing to eat from midnight.", "op3"),
        (CAL, "Third date's the charm. It's in my calendar."),
        (BEA, "How are you? You've been quiet."),
        (CAL, "Ffion and I broke up. Three weeks ago. It had been coming for a while."),
        (BEA, "Oh Callum. I'm sorry. Do you want to talk about it?"),
        (CAL, "Not much to say really. She's kept the flat, I've kept the kettle."),
        (BEA, "The kettle was always the important one."),
        (CAL, "Exactly. What's new with you?"),
        (BEA, "I'm thinking about leaving Porto. The rent went up again and my sister keeps sending me photos of "
              "flats in Braga."),
        (CAL, "Braga's lovely! Is that the one with the big church on the hill?"),
        (BEA, "Bom Jesus, yes. Six hundred steps. Terrible for a knee."),
        (CAL, "Ha. One problem at a time."),
    ]),
    ("6:30 pm on 6 July, 2025", [
        (BEA, "Day four in Braga and the café downstairs already knows my order.", "braga"),
        (CAL, "Wait, you did it?! Congratulations! How's the knee with all the boxes?"),
        (BEA, "My sister carried everything, I supervised from the sofa. The op went fine on the 19th, I'm down "
              "to one crutch."),
        (CAL, "Look at you. Bionic."),
        (BEA, "And you? How's Cardiff?"),
        (CAL, "Good, actually. I've started lessons, my cello teacher says I hold the bow like a baguette.",
         "cello"),
        (BEA, "A cello! What happened to the brass band?"),
        (CAL, "Too many Thursday nights in a freezing church hall. The cello is just me and a teacher called "
              "Eirlys."),
        (BEA, "Very civilised. The baguette thing has me crying though."),
        (CAL, "Glad my suffering entertains you. Send pics of the flat!"),
        (BEA, "Once it has curtains. Right now the whole street can watch me eat cereal."),
        (CAL, "A public service."),
    ]),
    ("8:05 pm on 21 September, 2025", [
        (BEA, "Quick admin: I changed my number when I switched provider, the new one is 934 021 557. The old "
              "one's dead.", "phone2"),
        (CAL, "Saved, and the old one's deleted."),
        (BEA, "How's life? Still at Admiral?"),
        (CAL, "Nope, left in August. I'm a QA tester at Hafod Games now, I get paid to find bugs in a puzzle "
              "game about sheep.", "hafod"),
        (BEA, "That is the most Welsh job I've ever heard of"),
        (CAL, "The sheep are very clever, I'll have you know."),
        (BEA, "Do you miss the claims lot?"),
        (CAL, "Only the free biscuits. The bad bit: about Lyon. I can't take days off in my first three months, "
              "so I've cancelled my flight. I'm so sorry.", "lyon_off"),
        (BEA, "Don't be! The move ate my savings anyway. Lyon has been there since the Romans, it can wait."),
        (CAL, "Thank you. I felt awful."),
        (BEA, "Any other news? Romantically, if I'm allowed to ask"),
        (CAL, "You're allowed. I've been seeing someone for about a month. Lowri. We met at the climbing wall in "
              "Splott.", "lowri"),
        (BEA, "Lowri! Is she a better climber than you?"),
        (CAL, "Much better. It's humiliating. I love it."),
    ]),
    ("10:15 am on 30 November, 2025", [
        (CAL, "Bea, what do Portuguese people eat at Christmas? Lowri wants to cook something 'international'."),
        (BEA, "Bacalhau. Salt cod, potatoes, cabbage, a river of olive oil. Very plain, I adore it."),
        (CAL, "Salt cod. Where do I even buy salt cod in Cardiff"),
        (BEA, "Good luck! I was in Porto last weekend for a friend's birthday and came back with three kilos."),
        (CAL, "Three kilos!"),
        (BEA, "Braga is great, but I miss the Porto bakeries, not going to lie. Nothing here comes close."),
        (CAL, "Admiral sent me a Christmas party invite by mistake, by the way. HR hasn't noticed I've gone."),
        (BEA, "Go! Free buffet."),
        (CAL, "Tempting. The sheep game comes out in March so I'm working weekends anyway."),
        (BEA, "I'm walking up to Bom Jesus on Christmas morning. First real test for the knee."),
        (CAL, "Take the funicular, you maniac."),
        (BEA, "Never. The stairs are the whole point."),
    ]),
    ("7:40 pm on 15 March, 2026", [
        (CAL, "Bea, I have news and I can't wait for a call"),
        (BEA, "Go on, I'm on the sofa. What??"),
        (CAL, "I proposed! At the top of a crag in the Brecon Beacons. She said yes!!", "engaged"),
        (BEA, "CALLUM!!! Congratulations!! Did you drop the ring?"),
        (CAL, "Nearly. My hands were shaking so much she had to open the box for me."),
        (BEA, "Stop it, that's adorable. When's the wedding?"),
        (CAL, "Nothing decided, maybe next spring. You'll have to fly over."),
        (BEA, "Try and stop me. I'll bring a bottle of port."),
        (CAL, "How's the knee these days?"),
        (BEA, "Ran 5k yesterday for the first time since the op. Slowly. Very slowly."),
        (CAL, "Still counts!"),
        (BEA, "Will there be a cello at the wedding?"),
        (CAL, "Only if Eirlys plays it. Nobody should have to hear me play at a wedding."),
    ]),
])
QUESTIONS_1 = [
    q("Which city does Beatriz live in now?", "Braga", "move", "Braga", ["braga"], "Porto", ["porto"]),
    q("When was Beatriz's knee operation?", "19 June 2025", "date moved twice", "19 June", ["op3"],
      "14 March", ["op1"], intermediate="2 May", intermediate_at=["op2"]),
    q("Where does Callum work now?", "Hafod Games, as a QA tester", "job", "Hafod Games", ["hafod"],
      "Admiral", ["admiral"], also={"Hafod Games": ["Hafod"]}),
    q("What is Beatriz's phone number?", "934 021 557", "contact", "934 021 557", ["phone2"],
      "912 345 678", ["phone1"]),
    q("Who is Callum engaged to?", "Lowri", "relationship", "Lowri", ["lowri", "engaged"], "Ffion", ["ffion"],
      category=1),
    q("When are Beatriz and Callum going to Lyon?", "cancelled", "cancelled", "cancelled", ["lyon_off"],
      "10 October", ["lyon1"]),
    q("Which city did Beatriz live in before she moved to Braga?", "Porto", "move", "Braga", ["braga"],
      "Porto", ["porto"], past=True),
    q("What date was Beatriz's knee operation first booked for?", "14 March 2025", "date moved twice",
      "19 June", ["op3"], "14 March", ["op1"], intermediate="2 May", intermediate_at=["op2"], past=True),
    q("Which instrument did Callum play before he took up the cello?", "the trumpet", "preference", "cello",
      ["cello"], "trumpet", ["trumpet"], past=True),
]
NONE_1 = [{"question": "What is the name of Callum's brother?", "absent": "brother"}]


# -- fresh-2: Greta (Aberdeen) and her brother Ewan (Utrecht) ------------------

GRETA, EWAN = "Greta", "Ewan"
CHAT_2 = labelled_conversation(GRETA, EWAN, [
    ("6:50 pm on 16 March, 2025", [
        (GRETA, "Ewan! Mum says you haven't rung her in two weeks. Consider this your official warning."),
        (EWAN, "Guilty. I'll call her tonight. How's the granite city?"),
        (GRETA, "Grey and windy, same as ever. Kestrel Subsea are sending me offshore again next month, two weeks "
                "on a rig in the North Sea.", "kestrel"),
        (EWAN, "Rather you than me. Pack earplugs."),
        (GRETA, "Always. But flights are booked! I land at Schiphol on 25 April, just in time for King's Day.",
         "kings1"),
        (EWAN, "Yes!! Sanne is already planning orange outfits. You're staying with us in Lombok, the sofa bed is "
               "all yours.", "lombok"),
        (GRETA, "Perfect. How's the Dutch? I want to hear you order chips like a local."),
        (EWAN, "Slowly. The B1 exam is on 22 May, I do flashcards on the train every morning.", "exam1"),
        (GRETA, "Is 'lekker' still the only word you know"),
        (EWAN, "I also know 'fiets'. Bike. Essential vocabulary."),
        (GRETA, "Don't tell Mum yet, but I've been dating someone since Hogmanay. Magnus. We met at the Burns "
                "supper.", "dating"),
        (EWAN, "GRETA. I need details. Is he at least a Dons fan?"),
        (GRETA, "Season ticket at Pittodrie. Mum will adore him."),
        (EWAN, "Speaking of football, Celtic are on at the Irish pub by the Dom tonight and Sanne has agreed to "
               "come.", "celtic"),
    ]),
    ("8:30 pm on 20 April, 2025", [
        (GRETA, "Ewan, I'm gutted. Kestrel changed the rig rota and I can't get out of it, so I've called off the "
                "King's Day trip. I'm so sorry.", "kings_off"),
        (EWAN, "Ah no! Sanne bought you an orange crown and everything."),
        (GRETA, "Keep it for me. I'll wear it next year."),
        (EWAN, "Deal. My news isn't great either: the exam centre rescheduled me, it's the 3rd of July now. "
               "Something about the examiners' contracts.", "exam2"),
        (GRETA, "That's rubbish. More flashcard time, I suppose."),
        (EWAN, "Happier news: we've got a rabbit! A little white one. Sanne named him Snowball.", "snowball"),
        (GRETA, "A RABBIT. Photos immediately."),
        (EWAN, "Sent. He's already chewed through a charger cable."),
        (GRETA, "He's perfect. Any tips for interviews? I've got one with a wind farm company on Tuesday."),
        (EWAN, "Leaving the rigs? Tell them you're brilliant. Because you are."),
        (GRETA, "Very helpful, thank you, Dr Ewan."),
    ]),
    ("11:05 am on 1 June, 2025", [
        (EWAN, "How did the wind farm interview go? You never said"),
        (GRETA, "Second round on Friday! Trying very hard not to think about it."),
        (EWAN, "You'll be great. Meanwhile my exam's gone wrong again. The centre flooded, of all things. "
               "They'll send a new date."),
        (GRETA, "Flooded?? In the Netherlands? I thought you lot had water sorted"),
        (EWAN, "Burst pipe. Not quite the Delta Works."),
        (GRETA, "How's Snowball?"),
        (EWAN, "Fat and happy. He sleeps in the box from Sanne's trainers."),
        (GRETA, "Magnus and I went to Stonehaven for chips yesterday. The sun came out for nine whole minutes."),
        (EWAN, "A Scottish summer."),
        (GRETA, "We're thinking of a holiday together in July, maybe Skye."),
        (EWAN, "Look at you two!"),
    ]),
    ("7:15 pm on 27 July, 2025", [
        (GRETA, "First week at Granite Wind done! They gave me a hard hat with my name on it and I nearly cried.",
         "granite"),
        (EWAN, "YES! Congratulations! Onshore or offshore?"),
        (GRETA, "Mostly office, some trips out to the turbines. No more fortnights on a rig."),
        (EWAN, "Mum must be delighted"),
        (GRETA, "She's told the whole street. How's the Dutch going?"),
        (EWAN, "Got my exam letter this morning: 11 September, 9:30, at the centre by the station. Third time "
               "lucky.", "exam3"),
        (GRETA, "I'll light a candle."),
        (EWAN, "And Skye? Did you two go?"),
        (GRETA, "Two days of rain and one of sunshine. Magnus fell in a river. Best holiday ever."),
        (EWAN, "Ha! So he passed the test."),
        (GRETA, "He passed the test."),
        (EWAN, "Sanne says he's officially allowed to visit."),
    ]),
    ("9:00 pm on 14 September, 2025", [
        (EWAN, "Greta!! We moved out to Leidsche Rijn on Saturday. An actual house, with a garden!", "leidsche"),
        (GRETA, "A garden!! Snowball must be thrilled"),
        (EWAN, "He's dug three holes already. And: I PASSED the Dutch exam on Thursday!"),
        (GRETA, "EWAN! Both in one week! So proud of you."),
        (EWAN, "The examiner laughed at my joke about bikes, I think that helped."),
        (GRETA, "Was it the 'fiets' joke"),
        (EWAN, "There's only one joke, Greta."),
        (GRETA, "How's the commute from out there?"),
        (EWAN, "Twenty minutes on the bike into the centre, but there's a bakery on the corner."),
        (GRETA, "Magnus says hi. He's learned three Dutch words for when we visit."),
        (EWAN, "Which three?"),
        (GRETA, "Hello, beer and sorry."),
        (EWAN, "He'll fit right in."),
    ]),
    ("5:20 pm on 23 November, 2025", [
        (GRETA, "Ewan, have you got a minute? Actually no, I can't wait."),
        (EWAN, "What? Is everyone OK?"),
        (GRETA, "Magnus proposed on the beach at Stonehaven! We're engaged!!", "engaged"),
        (EWAN, "WHAT!!! Congratulations!!! Did he do the whole knee thing?"),
        (GRETA, "In the sand, in November, in a gale. His trousers are ruined."),
        (EWAN, "A true romantic. Sanne is screaming in the kitchen."),
        (GRETA, "Tell her she's in charge of the hen do."),
        (EWAN, "She'll love that. Rabbit news too: Sanne's nephew renamed him. He's Stroopwafel now and honestly "
               "it suits him better.", "stroopwafel"),
        (GRETA, "Stroopwafel is an elite rabbit name."),
        (EWAN, "He even answers to it, which Snowball never did."),
        (GRETA, "Any wedding dates you'd veto?"),
        (EWAN, "Not on a match day, Magnus would never forgive you."),
    ]),
    ("8:45 pm on 8 February, 2026", [
        (EWAN, "Quick one, because Mum asked: I've switched to FC Utrecht. Sanne got us season tickets, red and "
               "white scarf and everything.", "fcutrecht"),
        (GRETA, "You've abandoned Celtic? Grandad would be horrified."),
        (EWAN, "I still watch the Old Firm. But the Galgenwaard is ten minutes away and the atmosphere is mad."),
        (GRETA, "Fine. As long as you never turn against the Dons."),
        (EWAN, "Never. How's the wedding planning?"),
        (GRETA, "We've booked a barn near Banchory for next year. Magnus wants a piper."),
        (EWAN, "Of course he does."),
        (GRETA, "And Granite Wind are sending me to Shetland for a week in March."),
        (EWAN, "Take a big coat. I miss the Turkish bakery in Lombok, by the way. The one here only does "
               "croissants."),
        (GRETA, "Croissants. Tragic."),
        (EWAN, "Stroopwafel ate half a croissant once. He sulked for a day."),
    ]),
    ("12:30 pm on 17 May, 2026", [
        (GRETA, "Happy birthday, wee brother! 35!"),
        (EWAN, "Thank you! Sanne made a cake shaped like a rabbit."),
        (GRETA, "Of course she did. Is Stroopwafel jealous?"),
        (EWAN, "He's had a whole carrot, he's fine."),
        (GRETA, "Mum wants to know if you're coming over this summer."),
        (EWAN, "July, maybe. Depends on Sanne's shifts."),
        (GRETA, "Magnus is building a bench for the garden and it's very wonky."),
        (EWAN, "Send pics."),
        (GRETA, "Also Granite Wind have put me in charge of the Shetland survey, so I'm a team leader!"),
        (EWAN, "Big sister, big boss."),
    ]),
])
QUESTIONS_2 = [
    q("Which neighbourhood of Utrecht does Ewan currently live in?", "Leidsche Rijn", "move", "Leidsche Rijn",
      ["leidsche"], "Lombok", ["lombok"]),
    q("Where does Greta work?", "Granite Wind", "job", "Granite Wind", ["granite"], "Kestrel Subsea",
      ["kestrel"], also={"Kestrel Subsea": ["Kestrel"]}),
    q("When did Ewan sit his Dutch exam?", "11 September 2025", "date moved twice", "11 September", ["exam3"],
      "22 May", ["exam1"], intermediate="3 July", intermediate_at=["exam2"]),
    q("What is Greta's relationship status?", "engaged to Magnus", "relationship", "engaged", ["engaged"],
      "dating", ["dating"], also={"engaged": ["fiancé", "fiancée"]}),
    q("What is Ewan's rabbit called now?", "Stroopwafel", "pet", "Stroopwafel", ["stroopwafel"], "Snowball",
      ["snowball"]),
    q("When is Greta flying to Utrecht for King's Day?", "cancelled", "cancelled", "cancelled", ["kings_off"],
      "25 April", ["kings1"]),
    q("Where did Greta work before Granite Wind?", "Kestrel Subsea", "job", "Granite Wind", ["granite"],
      "Kestrel Subsea", ["kestrel"], past=True, also={"Kestrel Subsea": ["Kestrel"]}),
    q("What was Ewan's rabbit called before he was renamed?", "Snowball", "pet", "Stroopwafel", ["stroopwafel"],
      "Snowball", ["snowball"], past=True),
    q("Which football team did Ewan support before FC Utrecht?", "Celtic", "preference", "FC Utrecht",
      ["fcutrecht"], "Celtic", ["celtic"], past=True),
]
NONE_2 = [{"question": "Which instrument does Greta play?", "absent": "instrument"}]


# -- fresh-3: Hattie (Valencia) and Kofi (Bologna, then Ferrara), former colleagues

HATTIE, KOFI = "Hattie", "Kofi"
CHAT_3 = labelled_conversation(HATTIE, KOFI, [
    ("9:15 pm on 11 May, 2025", [
        (KOFI, "Hattie! It's been ages. How's Valencia?"),
        (HATTIE, "Hot already! 27 degrees in May. What about you?"),
        (KOFI, "Bologna is great, porticoes everywhere so I never need an umbrella. The flat in the Bolognina is "
               "tiny though.", "bologna"),
        (HATTIE, "Tiny flats are a personality trait at this point."),
        (KOFI, "Ercole the tortoise takes up half of it. He's decided the kitchen is his.", "ercole"),
        (HATTIE, "How old is he? He was ancient when you left Valencia."),
        (KOFI, "Thirty-one, the vet thinks. He'll outlive us both."),
        (HATTIE, "Exams week at Academia Turia, forty teenagers writing about their summer holidays. I'm marking "
                 "with a very big coffee.", "turia"),
        (KOFI, "Does the staff room still miss my coffee machine skills?"),
        (HATTIE, "It has never recovered. Also I've started salsa on Thursdays, I'm terrible and I love it.",
         "salsa"),
        (KOFI, "I'd pay to see that. I've signed up for the Rimini triathlon in September, so my evenings are all "
               "swimming.", "rimini"),
        (HATTIE, "You hate swimming!"),
        (KOFI, "I hate it so much. That's the point, apparently."),
    ]),
    ("1:40 pm on 29 June, 2025", [
        (HATTIE, "Kofi!! News. Ediciones Faro want my picture book. The one about the pigeon."),
        (KOFI, "HATTIE! The pigeon book! That's amazing!"),
        (HATTIE, "The launch is on the 18th of October, at a bookshop in Ruzafa. You have to come.", "launch1"),
        (KOFI, "I'll try! Send me the details."),
        (HATTIE, "Email me and I'll forward the invite, I'm better at email than WhatsApp: "
                 "hattie.teaches@gmail.com", "gmail"),
        (KOFI, "Done. Are you doing the pictures yourself?"),
        (HATTIE, "All me. Every feather. I draw after work every night."),
        (KOFI, "And I swim every night. We're both suffering."),
        (HATTIE, "How's the training going?"),
        (KOFI, "750 metres without stopping. Slowly, like Ercole."),
        (HATTIE, "Ercole would make a good triathlete. Tortoises never give up."),
        (KOFI, "He'd win the cycling."),
    ]),
    ("8:10 pm on 24 August, 2025", [
        (HATTIE, "Bad news about the pigeon. Printer delays, so the launch is postponed to 21 November.",
         "launch2"),
        (KOFI, "Argh. Still, more time for me to book a flight."),
        (HATTIE, "True. How's the swimming?"),
        (KOFI, "About that. Big decision: I'm doing the Maratona dles Dolomites next July instead of the "
               "triathlon. Pure cycling, 138 km, seven mountain passes.", "dolomites"),
        (HATTIE, "So you just... stopped swimming"),
        (KOFI, "Sold my wetsuit online the same day."),
        (HATTIE, "Ha! Honestly, good. You looked miserable in every photo."),
        (KOFI, "I was miserable. Bikes make me happy."),
        (HATTIE, "I've got a plan too. I want to illustrate full time, so I've applied to a couple of studios."),
        (KOFI, "Do it! You're wasted on present perfect worksheets."),
        (HATTIE, "Kind of you. Meanwhile my salsa partner has gone off to Madrid."),
        (KOFI, "Find another one, you'll be fine."),
    ]),
    ("7:00 pm on 19 October, 2025", [
        (KOFI, "Ciao from Ferrara! The flat is on the ground floor and Ercole finally has a courtyard to patrol.",
         "ferrara"),
        (HATTIE, "Ferrara! When did that happen?"),
        (KOFI, "Two weeks ago. The rent is half of Bologna's and the train to the lab takes half an hour."),
        (HATTIE, "Smart. Is it flat? For the bike?"),
        (KOFI, "Flat as a pizza. I have to go to the hills for climbs."),
        (KOFI, "What about you? Still at Turia?"),
        (HATTIE, "Nope! Left in September. I'm a background artist at Nube Animation now, I paint skies for a "
                 "cartoon about a lighthouse.", "nube"),
        (KOFI, "HATTIE. That's the dream!"),
        (HATTIE, "It really is. And the pigeon has a new date. Faro want it after Christmas: the 6th of February, "
                 "same bookshop.", "launch3"),
        (KOFI, "February I can do. I'll bring Ercole."),
        (HATTIE, "Please don't bring a tortoise on a plane."),
        (KOFI, "Fine. He'll send a card."),
    ]),
    ("10:30 am on 14 December, 2025", [
        (KOFI, "Meet Tortellino! An eight-week-old kitten from the shelter down the road. She's already bitten my "
               "thumb.", "tortellino"),
        (HATTIE, "OH. The ears! How's Ercole taking it?"),
        (KOFI, "Ercole has not noticed. Tortellino has very much noticed Ercole."),
        (HATTIE, "A dynamic duo. Right, admin: my shiny professional email, hello@hattiedraws.es. Please delete "
                 "the old gmail, it's a spam swamp.", "newmail"),
        (KOFI, "Saved. Very professional."),
        (HATTIE, "I'm a professional now! With a website!"),
        (KOFI, "How's salsa? Still falling over on Thursdays?"),
        (HATTIE, "I don't do salsa any more. Thursdays are pottery now, I made a bowl that looks like a hat.",
         "pottery"),
        (KOFI, "Send me the hat bowl."),
        (HATTIE, "It's yours. Christmas present. It holds about three olives."),
        (KOFI, "Perfect for Tortellino's treats."),
        (HATTIE, "Are you training through the winter?"),
        (KOFI, "Indoor trainer in the living room. Tortellino attacks my shoelaces."),
    ]),
    ("6:45 pm on 1 March, 2026", [
        (KOFI, "The launch!! How did it go? Sorry again I couldn't fly over."),
        (HATTIE, "It was lovely. Rain outside, sixty people inside and a cake shaped like a pigeon."),
        (KOFI, "Sixty! Did you sign books?"),
        (HATTIE, "My hand still hurts. The lighthouse crew came too."),
        (KOFI, "Your work people came! Love that."),
        (HATTIE, "How's Ferrara treating you?"),
        (KOFI, "Loving it. Bologna for work, then home to a quiet town and two animals."),
        (HATTIE, "Is Tortellino still attacking Ercole?"),
        (KOFI, "She sleeps on his shell these days. He doesn't seem to mind."),
        (HATTIE, "Stop, that's the cutest thing I've ever heard."),
        (KOFI, "Training's going up: 120 km last Saturday in the hills."),
        (HATTIE, "Legs of steel."),
    ]),
    ("9:20 pm on 21 June, 2026", [
        (KOFI, "Two weeks to the Dolomites! I'm nervous."),
        (HATTIE, "You'll be fine! You've done all the training."),
        (KOFI, "The Passo Giau is ten kilometres uphill. Nothing prepares you for that."),
        (HATTIE, "Take a photo at the top. For the pigeon sequel."),
        (KOFI, "There's a sequel??"),
        (HATTIE, "Faro asked! Pigeon goes to the seaside. I'm drawing it in the evenings after the studio."),
        (KOFI, "Hattie, you're unstoppable."),
        (HATTIE, "My pottery would say otherwise."),
        (KOFI, "Tortellino broke the hat bowl, by the way. I'm so sorry."),
        (HATTIE, "Ha! That's OK, I'll make her one of her own."),
        (KOFI, "Send me the book when it's out."),
        (HATTIE, "First copy goes to Ferrara, promise."),
    ]),
])
QUESTIONS_3 = [
    q("Where does Hattie work now?", "Nube Animation, as a background artist", "job", "Nube Animation", ["nube"],
      "Academia Turia", ["turia"], also={"Nube Animation": ["Nube"], "Academia Turia": ["Turia"]}),
    q("What is Hattie's email address?", "hello@hattiedraws.es", "contact", "hello@hattiedraws.es", ["newmail"],
      "hattie.teaches@gmail.com", ["gmail"]),
    q("When was Hattie's book launch?", "6 February 2026", "date moved twice", "6 February", ["launch3"],
      "18 October", ["launch1"], intermediate="21 November", intermediate_at=["launch2"]),
    q("Which event is Kofi currently training for?", "the Maratona dles Dolomites", "preference",
      "Maratona dles Dolomites", ["dolomites"], "Rimini triathlon", ["rimini"],
      also={"Maratona dles Dolomites": ["Dolomites"]}),
    q("What is the name of the newest pet in Kofi's Ferrara flat?", "Tortellino", "pet", "Tortellino",
      ["ferrara", "tortellino"], "Ercole", ["ercole"], category=1),
    q("Which city did Kofi live in before he moved to Ferrara?", "Bologna", "move", "Ferrara", ["ferrara"],
      "Bologna", ["bologna"], past=True),
    q("Which hobby did Hattie do before pottery?", "salsa", "preference", "pottery", ["pottery"], "salsa",
      ["salsa"], past=True),
    q("What date was Hattie's book launch first set for?", "18 October 2025", "date moved twice", "6 February",
      ["launch3"], "18 October", ["launch1"], intermediate="21 November", intermediate_at=["launch2"], past=True),
]
NONE_3 = [{"question": "What is Kofi's sister called?", "absent": "sister"}]


def build() -> list[dict]:
    return [sample("fresh-1", CHAT_1, QUESTIONS_1, NONE_1), sample("fresh-2", CHAT_2, QUESTIONS_2, NONE_2),
            sample("fresh-3", CHAT_3, QUESTIONS_3, NONE_3)]


def write(samples: list[dict], name: str) -> None:
    """Write ``samples`` to ``bench/data/NAME`` and say what is in it."""
    path = DATA / name
    path.write_text(json.dumps(samples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    notes = [n for s in samples for n in s["changed_facts_notes"]]
    print(f"wrote {path}: {len(samples)} chats, "
          f"{sum(len(t) for s in samples for k, t in s['conversation'].items() if isinstance(t, list))} turns, "
          f"{len(notes)} questions ({sum(n['asks_past'] for n in notes)} about the past), "
          f"{sum(len(s['unanswerable']) for s in samples)} unanswerable")


if __name__ == "__main__":
    write(build(), "changed-facts-fresh.json")
