"""Writes bench/data/changed-facts-assistant.json: one person's ChatGPT history in which facts change.

The other changed-facts sets are chats between two friends, one conversation
per pair. A ChatGPT or Claude export is another shape: one person asks an
assistant, one thread per topic, and a fact told in one thread changes in a
later one ("I've signed up for the Great North Run" in January's training
thread, "I've pulled out of the Great North Run" in May's). The assistant's
replies repeat what they are told, old values included. The questions ask
about "the user", as the held-out sets do.

Hand-written for rawrag (no copied text), in LoCoMo's format (one session per
thread, speakers ``User`` and ``ChatGPT``) so the repository's loader and the
scorer read it like the others; ``bench/chatgpt_export.py`` turns it into the
``conversations.json`` of a ChatGPT export, one thread per session, which is
what ``bench/changed_facts.py --lang assistant`` imports (the real importer,
real roles). Notes as in ``bench/_make_changed_facts.py``.

    python bench/_make_changed_facts_assistant.py   # rewrites the file
"""

from __future__ import annotations

import json
from pathlib import Path

from _make_changed_facts import CUE as CUE_BY_LANGUAGE
from _make_changed_facts import labelled_conversation

DATA = Path(__file__).resolve().parent / "data"

#: Change words, as tests/test_changed_facts_set.py checks them for English.
CUE = CUE_BY_LANGUAGE["en"]

U, A = "User", "ChatGPT"

# (session date, [(speaker, text, label or None)]); a label names a turn the notes cite.
THREADS = [
    ("7:40 am on 12 January, 2025", [
        (U, "I've signed up for the Great North Run in September, my first half marathon. I can run 5k now. "
            "Can you give me a 16-week plan?", "gnr"),
        (A, "Congratulations on signing up for the Great North Run! A 16-week plan from 5k: weeks 1-4, three easy "
            "runs a week with the long run growing from 6k to 9k; weeks 5-10, add a tempo run; weeks 11-14, take the "
            "long run to 18k; weeks 15-16, taper. Keep most runs at a pace where you can talk.", None),
        (U, "I'm vegetarian. What should I eat before a long run? And is it OK that I have two cold brews first?",
         "vegetarian"),
        (A, "As a vegetarian runner, porridge with banana, toast with peanut butter or a bagel with honey 2-3 hours "
            "before works well, with eggs or Greek yoghurt afterwards for protein. Two cold brews are fine if your "
            "stomach is used to them; try it on a training run first.", None),
    ]),
    ("8:15 pm on 26 January, 2025", [
        (U, "Can you tidy the header of my CV? Alex Morgan, chemistry teacher at Roundhay School, Leeds. "
            "Phone 07700 900555.", "roundhay"),
        (A, "Here is a cleaner header:\n\nAlex Morgan\nChemistry Teacher, Roundhay School, Leeds\n07700 900555\n\n"
            "Put your e-mail on the same line as the phone number to save space.", None),
    ]),
    ("6:30 pm on 9 February, 2025", [
        (U, "Ideas for a low-key Valentine's dinner at home for my boyfriend Chris? He hates fuss. Our cat Pepper "
            "will try to steal whatever we cook.", "chris"),
        (A, "A relaxed menu: a big risotto you can cook together, a bag of good bread, and a shop-bought tart with "
            "cream. Light a candle, no table plan, and give Pepper a treat of her own so she leaves the risotto "
            "alone.", None),
    ]),
    ("4:05 pm on 3 March, 2025", [
        (U, "I teach chemistry in Leeds and need a fun practical on reaction rates for Year 9.", None),
        (A, "The disappearing cross is a classic: sodium thiosulfate and hydrochloric acid at a few concentrations, "
            "timing how long a cross under the flask takes to vanish. Cheap, safe with goggles, and it gives clean "
            "data for a rate graph.", None),
        (U, "Different question. My car, a Ford Fiesta from 2012, failed its MOT on the brakes. Is it worth fixing?",
         "fiesta"),
        (A, "For a 2012 Ford Fiesta, brake discs and pads usually cost far less than the car is worth, so a repair "
            "makes sense unless other big jobs are coming.", None),
    ]),
    ("9:50 pm on 20 April, 2025", [
        (U, "Chris and I broke up last week. Help me write a short message to our friends so nobody has to tiptoe "
            "around it.", None),
        (A, "Here's a short one: \"Hi all, a quick note: Chris and I have split up. It's amicable and we're both "
            "OK. No need to choose sides or avoid either of us.\"", None),
    ]),
    ("8:05 pm on 2 May, 2025", [
        (U, "Change of plan: I've pulled out of the Great North Run and entered the Berlin Marathon instead, "
            "it's on 21 September. Can you turn my plan into a full marathon plan?", "berlin"),
        (A, "A big step up! For the Berlin Marathon on 21 September you have about 20 weeks. Run three to four times "
            "a week, add 2k to the long run every other week up to 32k by late August, keep one tempo or "
            "marathon-pace run each week, and taper for the last three weeks.", None),
        (U, "Also, I've gone fully vegan now, so no eggs or yoghurt.", "vegan"),
        (A, "Noted. Vegan fuel for marathon training: oats with soy milk and banana, tofu scrambles, lentil pasta, "
            "and a plant protein shake after long runs. Keep an eye on B12, iron and calcium.", None),
    ]),
    ("7:20 pm on 14 June, 2025", [
        (U, "I've been seeing someone new for a month, Sam. Ideas for a third date in Leeds that isn't a pub?",
         "sam"),
        (A, "A few ideas: a climbing wall session, the Hyde Park Picture House followed by a late dinner, or a walk "
            "along the canal to Kirkstall Abbey with a picnic.", None),
    ]),
    ("5:45 pm on 18 July, 2025", [
        (U, "I got the job! Head of science at Fulford School in York, starting in September. Can you help me "
            "write a leaving card message for my colleagues?", "fulford"),
        (A, "Congratulations on becoming head of science at Fulford School! For the card: \"Thank you for five "
            "brilliant years. I'll miss the staffroom biscuits and the chaos of Year 9 practicals. Come and visit "
            "me in York!\"", None),
        (U, "And Sam and I are moving to York together in August. A moving checklist please?", "york"),
        (A, "Moving checklist: book the van, redirect your post, tell the council and your GP, take meter readings "
            "on both days, pack a first-night box, and label boxes by room.", None),
    ]),
    ("10:10 am on 30 August, 2025", [
        (U, "New phone contract, and my number is now 07700 900777. Can you update the CV header?", "newphone"),
        (A, "Updated:\n\nAlex Morgan\nHead of Science, Fulford School, York\n07700 900777", None),
    ]),
    ("9:00 pm on 30 September, 2025", [
        (U, "I finished Berlin in 4:12! Next I've entered the Lakeland 50 for July. What should my winter look "
            "like?", "lakeland"),
        (A, "4:12 is a great first marathon, congratulations! The Lakeland 50 is a 50-mile trail ultra with a lot "
            "of climbing. Build an easy base through the winter, add hills from February, and do back-to-back "
            "long runs in spring.", None),
    ]),
    ("2:30 pm on 12 October, 2025", [
        (U, "We adopted a rescue greyhound called Juno! Pepper is not impressed. How do we introduce them?",
         "juno"),
        (A, "Keep them apart at first, swap bedding so they learn each other's smell, then short meetings with "
            "Juno on a lead and a muzzle while Pepper can escape upwards. Go at the cat's pace.", None),
    ]),
    ("8:40 pm on 8 November, 2025", [
        (U, "Sam and I are going to Iceland on 17 February for a week! Can you sketch an itinerary?", "iceland"),
        (A, "A week from 17 February: two nights in Reykjavik, the Golden Circle, two nights on the south coast "
            "for the waterfalls and black beaches, and a night under the northern lights if the sky is clear.",
         None),
    ]),
    ("11:15 am on 22 November, 2025", [
        (U, "Sold the Fiesta at last and bought a second-hand Nissan Leaf. How do I find chargers in York?",
         "leaf"),
        (A, "Zap-Map shows every public charger in York with live status. With a Leaf, a home charger on an "
            "overnight tariff is by far the cheapest way to charge.", None),
    ]),
    ("10:30 am on 8 January, 2026", [
        (U, "Sam and I got engaged over Christmas! Wedding venue ideas near York for spring 2027?", "engaged"),
        (A, "Congratulations to you and Sam! Near York for spring 2027: barns in the Yorkshire Dales, a stately "
            "home such as Castle Howard, or a city venue looking at the Minster. Spring dates go early.", None),
        (U, "Also my dentist check-up is on 13 February, remind me to ask about whitening.", "dentist1"),
        (A, "I can't set reminders, but here's a note to save: \"Dentist, 13 February: ask about whitening and "
            "the cost.\"", None),
    ]),
    ("7:55 pm on 20 January, 2026", [
        (U, "Bad news, we've cancelled Iceland. Sam's mum is having an operation that week. Help me ask the "
            "guesthouse for a refund?", "cancel"),
        (A, "Here's a polite message: \"Dear host, we're very sorry to cancel our booking from 17 February because "
            "of a family operation. Could you tell us whether a refund or credit is possible?\"", None),
    ]),
    ("6:10 pm on 29 January, 2026", [
        (U, "The dentist has moved my check-up to 20 February. Can you change the note?", "dentist2"),
        (A, "Of course: \"Dentist, 20 February: ask about whitening and the cost.\"", None),
    ]),
    ("8:20 am on 10 February, 2026", [
        (U, "They've moved the dentist again, it's now 3 March. Help me write a calm message asking them not to "
            "move it a third time.", "dentist3"),
        (A, "\"Hello, I see my check-up has moved to 3 March. That date works, but could you keep it fixed? "
            "I've rearranged twice already. Thank you.\"", None),
        (U, "Unrelated: these days I have a green tea every morning instead of cold brew. Is the caffeine enough "
            "before a hill session?", "greentea"),
        (A, "A cup of green tea has about a third of the caffeine of a cold brew. For a hard hill session, some "
            "people add a second cup or a caffeinated gel; try it in training first.", None),
    ]),
]

# (question, answer, category, note without q/evidence ids, labels of the latest, labels of the stale)
QUESTIONS = [
    ("Which race is the user training for now?", "Lakeland 50", 4,
     {"kind": "preference", "asks_past": False, "latest": "Lakeland 50", "stale": "Great North Run",
      "intermediate": "Berlin Marathon", "also": {"Lakeland 50": ["Lakeland"]}},
     ["lakeland"], ["gnr"], ["berlin"]),
    ("What diet does the user follow?", "vegan", 4,
     {"kind": "preference", "asks_past": False, "latest": "vegan", "stale": "vegetarian"},
     ["vegan"], ["vegetarian"], []),
    ("Which school does the user work at?", "Fulford School, as head of science", 4,
     {"kind": "job", "asks_past": False, "latest": "Fulford", "stale": "Roundhay"}, ["fulford"], ["roundhay"], []),
    ("Which city does the user live in?", "York", 4,
     {"kind": "move", "asks_past": False, "latest": "York", "stale": "Leeds"}, ["york"], ["roundhay"], []),
    ("When is the user's dentist check-up?", "3 March 2026", 2,
     {"kind": "date moved twice", "asks_past": False, "latest": "3 March", "stale": "13 February",
      "intermediate": "20 February"}, ["dentist3"], ["dentist1"], ["dentist2"]),
    ("When is the user going to Iceland?", "cancelled", 2,
     {"kind": "cancelled", "asks_past": False, "latest": "cancelled", "stale": "17 February"},
     ["cancel"], ["iceland"], []),
    ("What is the user's phone number?", "07700 900777", 4,
     {"kind": "contact", "asks_past": False, "latest": "07700 900777", "stale": "07700 900555"},
     ["newphone"], ["roundhay"], []),
    ("Who is the user's partner?", "Sam, engaged since Christmas 2025", 4,
     {"kind": "relationship", "asks_past": False, "latest": "Sam", "stale": "Chris"},
     ["sam", "engaged"], ["chris"], []),
    ("What is the name of the user's newest pet?", "Juno", 4,
     {"kind": "pet", "asks_past": False, "latest": "Juno", "stale": "Pepper"}, ["juno"], ["chris"], []),
    ("What does the user drink in the morning?", "green tea", 4,
     {"kind": "preference", "asks_past": False, "latest": "green tea", "stale": "cold brew"},
     ["greentea"], ["vegetarian"], []),
    ("What car does the user drive?", "a second-hand Nissan Leaf", 4,
     {"kind": "preference", "asks_past": False, "latest": "Nissan Leaf", "stale": "Fiesta",
      "also": {"Nissan Leaf": ["Leaf"]}}, ["leaf"], ["fiesta"], []),
    ("Which race had the user entered before the Berlin Marathon?", "Great North Run", 4,
     {"kind": "preference", "asks_past": True, "latest": "Berlin Marathon", "stale": "Great North Run"},
     ["berlin"], ["gnr"], []),
    ("What diet did the user follow before going vegan?", "vegetarian", 4,
     {"kind": "preference", "asks_past": True, "latest": "vegan", "stale": "vegetarian"},
     ["vegan"], ["vegetarian"], []),
    ("Which school did the user teach at before Fulford School?", "Roundhay School", 4,
     {"kind": "job", "asks_past": True, "latest": "Fulford", "stale": "Roundhay"}, ["fulford"], ["roundhay"], []),
    ("Which city did the user live in before moving to York?", "Leeds", 4,
     {"kind": "move", "asks_past": True, "latest": "York", "stale": "Leeds"}, ["york"], ["roundhay"], []),
    ("What date was the user's dentist check-up first booked for?", "13 February 2026", 2,
     {"kind": "date moved twice", "asks_past": True, "latest": "3 March", "stale": "13 February",
      "intermediate": "20 February"}, ["dentist3"], ["dentist1"], ["dentist2"]),
    ("What was the user's phone number before the new contract?", "07700 900555", 4,
     {"kind": "contact", "asks_past": True, "latest": "07700 900777", "stale": "07700 900555"},
     ["newphone"], ["roundhay"], []),
    ("Who was the user's boyfriend before Sam?", "Chris", 4,
     {"kind": "relationship", "asks_past": True, "latest": "Sam", "stale": "Chris"}, ["sam"], ["chris"], []),
    ("What car did the user drive before the Nissan Leaf?", "a 2012 Ford Fiesta", 4,
     {"kind": "preference", "asks_past": True, "latest": "Nissan Leaf", "stale": "Fiesta"}, ["leaf"], ["fiesta"], []),
]

UNANSWERABLE = [
    {"question": "What is the name of the user's sister?", "absent": "sister"},
    {"question": "Which instrument does the user play?", "absent": "instrument"},
]


def build() -> dict:
    conversation, where, text_of = labelled_conversation(U, A, THREADS)
    qa, notes = [], []
    for q, (question, answer, category, note, latest, stale, intermediate) in enumerate(QUESTIONS):
        latest_ids = [where[x] for x in latest]
        stale_ids = [where[x] for x in stale]
        evidence = stale_ids + [where[x] for x in intermediate] + latest_ids if note["asks_past"] else latest_ids
        qa.append({"question": question, "answer": answer, "evidence": evidence, "category": category})
        full = {"q": q, **note, "latest_evidence": latest_ids, "stale_evidence": stale_ids,
                "cue": any(CUE.search(text_of[d]) for d in latest_ids)}
        if intermediate:
            full["intermediate_evidence"] = [where[x] for x in intermediate]
        notes.append(full)
    return {"sample_id": "cf-assistant-1", "conversation": conversation, "qa": qa,
            "changed_facts_notes": notes, "language": "en", "export": "chatgpt", "unanswerable": UNANSWERABLE}


if __name__ == "__main__":
    path = DATA / "changed-facts-assistant.json"
    path.write_text(json.dumps([build()], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
