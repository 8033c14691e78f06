"""Writes bench/data/changed-facts-third.json: a third unseen English changed-facts set.

Like ``bench/_make_changed_facts_second.py`` (the fresh set's ``q`` and
``sample`` build the notes here too): three chats written for rawrag without
looking at how the app answers, with no person, place, employer, team or pet of
the other changed-facts sets, of ``bench/data/yes-no.json`` or of LoCoMo's
conv-26, in LoCoMo's format, in shapes the other sets do not have: a sister in
Pune (then Hyderabad) and her younger brother in Kochi, two colleagues of a
remote software company in Halifax (then Victoria) and Winnipeg, and a retired
woman in Inverness (then Oban) with a younger friend in Cape Town, each over a
year or more of 2025-2026. Facts change in them (a move, a new job, a date
moved twice, a cancelled trip, a break-up, a new partner or an engagement, a
new phone number or e-mail, a hobby, a hockey team, a renamed kitten), some
said with a change word ("switched", "cancelled", "called off", "now"), some
only as the new state ("Fortnight in Hyderabad done"), some in answer to a
question ("Hold on, are you still at Banyan?" "Nope! ..."), some naming the
old value in the same line ("Moving from Halifax to Victoria took nine
days"); the old state comes back in passing later ("I still dream I'm
climbing the stairs in the old Inverness house").

Per chat one question about now shares no word with the line that answers it
(``NO_SHARED_WORD``, checked when the file is written): "Where is Ishani based
these days?" is answered by "Fortnight in Hyderabad done. ...". The
unanswerable questions are two a chat.

Notes as in the fresh and second sets: one per question, ``asks_past`` true
where the right answer is the ``stale`` value, ``cue`` whether a latest
statement holds an English change word. A turn is written with a label where a
note cites it; the dia ids are worked out from the labels.

    python bench/_make_changed_facts_third.py   # rewrites the file
"""

from __future__ import annotations

import re

from _make_changed_facts import labelled_conversation
from _make_changed_facts_fresh import q, sample, write

# -- third-1: Ishani (Pune, then Hyderabad) and her younger brother Kabir (Kochi)

ISH, KAB = "Ishani", "Kabir"
CHAT_1 = labelled_conversation(ISH, KAB, [
    ("9:15 pm on 12 January, 2025", [
        (KAB, "Didi! Did Papa send you the video of him dancing at the society Lohri party? 😂"),
        (ISH, "He sent it to EVERY group. The building group, the office group, my yoga group. I'm never "
              "recovering."),
        (KAB, "Legend behaviour. How's the cold treating you?"),
        (ISH, "Pune at 9 degrees and my flat in Koregaon Park has no heater, so I'm typing this from inside two "
              "blankets.", "pune"),
        (KAB, "Kochi is 31 and sticky. Want to swap?"),
        (ISH, "Don't tempt me. How's the clinic?"),
        (KAB, "Mad busy. Banyan Physio Clinic has one receptionist and about four hundred knees.", "banyan"),
        (ISH, "Four hundred knees lol. Are you still seeing Tanvi or did that fizzle out?"),
        (KAB, "Still seeing Tanvi! Four months. She made me watch a whole Malayalam horror series, I slept with "
              "the light on for a week.", "tanvi"),
        (ISH, "Baby brother is scared of ghosts, noted for the wedding speech."),
        (KAB, "There's no wedding. Calm down."),
        (ISH, "Also pls tell Mum my number is still 98220 41736, she saved it wrong AGAIN and keeps calling some "
              "uncle in Nashik.", "phone1"),
        (KAB, "She saved mine as 'Kabir Son Kochi Physio'. Full LinkedIn profile."),
    ]),
    ("8:40 pm on 2 March, 2025", [
        (KAB, "Ok serious question. Ladakh. This year. Yes or no?"),
        (ISH, "YES. I've wanted to do that road since college."),
        (KAB, "Found a bike tour from Manali to Leh. Starts 19 July, nine days, they give us Royal Enfields and a "
              "mechanic.", "ladakh1"),
        (ISH, "Booking it tonight before I chicken out 🏍️"),
        (KAB, "Already booked both of us. You owe me 41k."),
        (ISH, "Ugh fine, transfering. Other news, don't tell Mum: my company might shift my whole team to the "
              "Hyderabad office."),
        (KAB, "WHAT. When?"),
        (ISH, "Nothing's decided. Maybe summer. I'd be closer to you at least. Sort of."),
        (KAB, "Hyderabad to Kochi is still a flight, didi."),
        (ISH, "Closer than Pune is all I'm saying."),
        (ISH, "Also I've started playing badminton at the club near my flat. Sunday badminton, then poha, then "
              "nap. Perfect day.", "badminton"),
        (KAB, "Who are you and what have you done with my sister who once faked a sprain to skip PT"),
        (ISH, "People grow, Kabir."),
    ]),
    ("10:05 pm on 27 April, 2025", [
        (ISH, "You've gone very quiet. Everything ok?"),
        (KAB, "Tanvi and I ended it last weekend. Her family wants her in Dubai, she wants to go, I don't. Nobody's "
              "the villain."),
        (ISH, "Oh Kabu. I'm so sorry. Call me?"),
        (KAB, "Tomorrow. Tonight I'm eating a full tub of ice cream and watching the IPL."),
        (ISH, "Very healthy. Very physio of you."),
        (KAB, "Also work might get interesting. A cricket academy rang me about a physio role. Interview next week."),
        (ISH, "Ooh, sports! That's what you always wanted."),
        (ISH, "And it's official btw. Hyderabad from June. They're even paying for the packers."),
        (KAB, "So the rumour was real!! Mum's going to cry."),
        (ISH, "Mum already cried. Then she asked if Hyderabad has good doctors for her knee. She doesn't even "
              "live there."),
    ]),
    ("7:30 pm on 22 June, 2025", [
        (ISH, "Fortnight in Hyderabad done. The watchman already waves me through and the biryani stall "
              "downstairs knows my order.", "hyderabad"),
        (KAB, "Biryani on tap. You've won life."),
        (ISH, "I've gained two kilos, not sure 'won' is the word."),
        (KAB, "How's the flat?"),
        (ISH, "Big! Balcony, and a neem tree right outside. Housewarming is 23 August, you HAVE to come, I'm "
              "making Mum's chole.", "house1"),
        (KAB, "Will try. Depends on the new place."),
        (ISH, "New place?? Hold on, are you still at Banyan?"),
        (KAB, "Nope! Last day there was the 13th. I'm the physio at Red Kite Cricket Academy now, taping the "
              "ankles of fifteen-year-old fast bowlers all day.", "redkite"),
        (ISH, "KABIR. Why am I hearing this on a Sunday night by text?"),
        (KAB, "Wanted to be sure I'd survive the first week. I did. The coach shouts a lot but not at me."),
        (ISH, "Proud of you bro 🥹"),
        (KAB, "Bad news tho. The tour company emailed: landslides on the Manali road, they've called off the "
              "July batches and are refunding everyone. So no Ladakh for us.", "ladakh_off"),
        (ISH, "Noooo. My poor unused riding jacket."),
        (KAB, "The mountains aren't going anywhere."),
        (ISH, "The landslides suggest otherwise."),
    ]),
    ("9:50 pm on 10 August, 2025", [
        (ISH, "Housewarming update. The painters are three weeks behind, so it's pushed back to 13 September. "
              "Please still come.", "house2"),
        (KAB, "Are the painters painting with toothbrushes"),
        (ISH, "Honestly it looks like it. How are the fast bowlers?"),
        (KAB, "One of them clocked 138 in the nets today and then cried because his shoelace broke. Teenagers."),
        (ISH, "lol"),
        (ISH, "Different number from today btw, the Pune SIM kept dropping calls here: 90107 55382. Save it "
              "before Mum saves it wrong.", "phone2"),
        (KAB, "Saved. As 'Didi Hyderabad Biryani'."),
        (ISH, "Accurate."),
        (KAB, "Met someone, by the way. Farah. She's the nutritionist at the academy and she thinks my diet is "
              "a crime.", "farah"),
        (ISH, "She's right. You eat Maggi for dinner."),
        (KAB, "Maggi is a food group."),
    ]),
    ("8:20 pm on 21 September, 2025", [
        (KAB, "How was the housewarming? Sorry again I couldn't make it, it was match week."),
        (ISH, "It didn't happen! The society lift died on the Friday and half my guests are over sixty. It's on "
              "4 October, and that's FINAL.", "house3"),
        (KAB, "4 October I can actually do!! Booking flights."),
        (ISH, "Bring Farah if she wants."),
        (KAB, "She does want. She's already asking what she can cook. Warning: it'll be healthy."),
        (ISH, "My badminton racket is gathering dust btw. Sundays are for the pottery studio in Banjara Hills, my "
              "first bowl came out lopsided but it holds dal.", "pottery"),
        (KAB, "A lopsided bowl for my flat please."),
        (ISH, "Only if you ask nicely."),
        (KAB, "Pleeeease"),
        (ISH, "Not like that."),
    ]),
    ("6:45 pm on 18 January, 2026", [
        (ISH, "Happy Sankranti! The kites on our terrace today were insane."),
        (KAB, "Same here. Farah and I flew one off the academy roof and nearly got banned."),
        (ISH, "How is the nutrition police?"),
        (KAB, "She's got me eating oats. OATS, didi."),
        (ISH, "I miss the Pune monsoon, honestly. Here it goes from hot to hotter with one week of rain in "
              "between."),
        (KAB, "You hated the Pune rain when you lived there."),
        (ISH, "Nostalgia is a liar."),
        (KAB, "Ladakh this summer? Properly this time?"),
        (ISH, "Only if there's a road left."),
    ]),
    ("11:30 am on 8 March, 2026", [
        (KAB, "Are you sitting down?"),
        (ISH, "I'm at the pottery wheel. Go."),
        (KAB, "I proposed to Farah last night on the beach at Fort Kochi. She said yes!! 💍", "engaged"),
        (ISH, "KABIR!!!! 😭😭 I'm covered in clay and crying"),
        (KAB, "Mum already knows. She's planning a menu for 600 people."),
        (ISH, "Of course she is. When's the wedding?"),
        (KAB, "December, probably. Farah wants it small, Mum does not. We'll see who wins."),
        (ISH, "Mum. Mum always wins."),
        (ISH, "Funny, a year ago you told me there was no wedding."),
        (KAB, "Different year, different guy."),
    ]),
])
QUESTIONS_1 = [
    q("Where is Ishani based these days?", "Hyderabad", "move", "Hyderabad", ["hyderabad"], "Pune", ["pune"]),
    q("Where does Kabir work now?", "Red Kite Cricket Academy, as its physio", "job", "Red Kite Cricket Academy",
      ["redkite"], "Banyan Physio Clinic", ["banyan"],
      also={"Red Kite Cricket Academy": ["Red Kite"], "Banyan Physio Clinic": ["Banyan"]}),
    q("When is Ishani's housewarming?", "4 October 2025", "date moved twice", "4 October", ["house3"], "23 August",
      ["house1"], intermediate="13 September", intermediate_at=["house2"]),
    q("When are Ishani and Kabir doing the Ladakh bike tour?", "cancelled", "cancelled", "cancelled",
      ["ladakh_off"], "19 July", ["ladakh1"]),
    q("Who is Kabir engaged to?", "Farah", "relationship", "Farah", ["engaged"], "Tanvi", ["tanvi"]),
    q("What is Ishani's phone number?", "90107 55382", "contact", "90107 55382", ["phone2"], "98220 41736",
      ["phone1"]),
    q("Which city did Ishani live in before she moved to Hyderabad?", "Pune", "move", "Hyderabad", ["hyderabad"],
      "Pune", ["pune"], past=True),
    q("What date was Ishani's housewarming first planned for?", "23 August 2025", "date moved twice", "4 October",
      ["house3"], "23 August", ["house1"], intermediate="13 September", intermediate_at=["house2"], past=True),
    q("What did Ishani do on Sundays before she took up pottery?", "badminton", "preference", "pottery",
      ["pottery"], "badminton", ["badminton"], past=True),
]
NONE_1 = [{"question": "What car does Kabir drive?", "absent": "car"},
          {"question": "What is Ishani's husband called?", "absent": "husband"}]


# -- third-2: Delphine (Halifax, then Victoria) and Grady (Winnipeg), colleagues

DEL, GRA = "Delphine", "Grady"
CHAT_2 = labelled_conversation(DEL, GRA, [
    ("10:10 am on 6 February, 2025", [
        (GRA, "Morning! Standup is at 11 today, Margot's dentist ran over."),
        (DEL, "Bless her. Halifax is in a full whiteout, I can see exactly zero of the harbour from my desk.",
         "halifax"),
        (GRA, "Winnipeg is -34 with the wind. My eyelashes froze walking Dumpling."),
        (DEL, "Why do we live in this country"),
        (GRA, "Healthcare and ketchup chips."),
        (DEL, "Fair. Did you see the release plan? Bluefin 3.0 ships 17 March, carved in stone apparently.",
         "rel1"),
        (GRA, "Carved in soap. The billing module still falls over if you look at it funny."),
        (DEL, "That's your module, Grady."),
        (GRA, "I inherited it! I'm the victim here. Five years at Northmoss Software next month and all I have "
              "to show for it is that module and a mug.", "northmoss"),
        (DEL, "What's your email again? I keep sending things to the other Grady in sales."),
        (GRA, "grady.b@northmoss.ca. The other Grady has been getting a lot of my memes.", "mail1"),
        (DEL, "He deserves them honestly"),
    ]),
    ("4:45 pm on 11 March, 2025", [
        (DEL, "Guess who found a data-loss bug in the migration script at 2 am"),
        (GRA, "Not you. Please not you."),
        (DEL, "Me. So Bluefin is pushed back to 28 April. Product is thrilled, as you can imagine.", "rel2"),
        (GRA, "I'll light a candle for product."),
        (DEL, "How's Dumpling?"),
        (GRA, "Ate a glove. A whole glove. The vet says it'll 'pass'. 🧤"),
        (DEL, "Poor Dumpling. Poor glove."),
        (DEL, "Remy and I went to the Halifax Mooseheads game last night, they lost 6-1 and he still bought me a "
              "beaver tail to cheer me up.", "remy"),
        (GRA, "Beaver tails fix everything."),
        (DEL, "Oh and the NorthDev Summit in Toronto got approved for both of us! 22 October, two days, hotel on "
              "the company.", "toronto1"),
        (GRA, "Yesss. I'm going to every talk with free pizza."),
        (GRA, "Real talk though, I'm getting tired of billing. Been looking around a little."),
        (DEL, "Don't you dare leave me alone with that module."),
    ]),
    ("8:30 pm on 20 April, 2025", [
        (DEL, "Big news: I said yes to the Victoria transfer. Remy's staying in Halifax, we're going to try long "
              "distance."),
        (GRA, "Whoa, the other coast?! How does Remy feel?"),
        (DEL, "He says fine. His face says not fine."),
        (GRA, "Ouch. When's the drive?"),
        (DEL, "Middle of June. My sister's flying in to do half the driving."),
        (GRA, "Bluefin news from my side: QA found the export thing again, so it's 9 June now. Third date. I'm "
              "not even sad, I'm numb.", "rel3"),
        (DEL, "At least it's after my move so I can't be blamed for anything"),
        (GRA, "And... I have an interview Thursday. Larchfield Games, tools team. Don't tell Margot."),
        (DEL, "A games studio! Ok, you're forgiven for abandoning the module. If you get it."),
        (GRA, "If. Big if."),
    ]),
    ("7:15 pm on 13 July, 2025", [
        (DEL, "Last box unpacked. Moving from Halifax to Victoria took nine days and one small breakdown in a "
              "Saskatoon motel.", "victoria"),
        (GRA, "A breakdown of the car or of you?"),
        (DEL, "Me. The car was a champ."),
        (GRA, "How's the flat?"),
        (DEL, "Tiny, but it smells like the ocean and a heron stands on the neighbour's fence every morning "
              "judging me."),
        (GRA, "Herons judge everyone. Also Bluefin went out without a single page, did you see? I framed the "
              "dashboard."),
        (DEL, "I saw! We did it. Eventually."),
        (GRA, "Ok my news. I got the Larchfield offer. Last day at Northmoss is the 22nd of August, I start "
              "there the Monday after."),
        (DEL, "NOOO. I mean yay. I mean nooo."),
        (GRA, "You'll survive. Hand the billing module to the new guy, he looks strong."),
        (DEL, "And NorthDev? Still coming with me?"),
        (GRA, "Obviously. Different badge, same free pizza."),
    ]),
    ("9:00 pm on 31 August, 2025", [
        (GRA, "First week at Larchfield Games done. There's a nap room and nobody has said the word 'invoice' "
              "once.", "larchfield"),
        (DEL, "Jealous of the nap room. Margot hired your replacement, he asks questions with his whole chest."),
        (GRA, "Good for him. Oh and my email's different obviously: gbeaulieu@larchfieldgames.com. The northmoss "
              "one bounces after Friday.", "mail2"),
        (DEL, "Saved. How's Dumpling?"),
        (GRA, "Thriving. Ate a sock this time."),
        (DEL, "Remy and I called it quits. Long distance with a four-hour time difference was just two tired "
              "people on video calls."),
        (GRA, "Oh Del. I'm sorry. You ok?"),
        (DEL, "Mostly. Sad but it was right. I've been going to a climbing gym so I don't think about it."),
        (GRA, "Climb it out. Very healthy coping."),
    ]),
    ("6:30 pm on 12 October, 2025", [
        (DEL, "Toronto's off for me. Northmoss froze all travel for the quarter and I'm not paying out of "
              "pocket.", "toronto_off"),
        (GRA, "Ugh. Larchfield would've sent me but not without you, what's the point. I cancelled my hotel "
              "this morning.", "toronto_off2"),
        (DEL, "We'll do a halfway meetup instead. Calgary?"),
        (GRA, "Calgary in winter. You're a monster."),
        (DEL, "Also... remember the climbing gym guy? Ansel kissed me on top of Mount Doug on Saturday 🙈 "
              "smitten, honestly.", "ansel"),
        (GRA, "DELPHINE. Details."),
        (DEL, "He's a marine biologist, he's tall, he brought snacks. That's all you get."),
        (GRA, "Snacks is a green flag."),
    ]),
    ("8:10 pm on 30 November, 2025", [
        (GRA, "Jets won in overtime last night, I yelled so loud Dumpling hid in the bathtub."),
        (DEL, "I've become a Victoria Royals person. Ansel has season tickets and the rink is ten minutes from "
              "my place. Sorry Mooseheads, it's not you, it's geography.", "royals"),
        (GRA, "Traitor."),
        (DEL, "It's junior hockey, Grady, I'm allowed two teams."),
        (GRA, "You're allowed one team and it's the Jets."),
        (DEL, "How's Larchfield?"),
        (GRA, "Crunch season. I've written more build scripts than texts to my mother this month."),
        (DEL, "Northmoss-level crunch or worse?"),
        (GRA, "Worse, but the snacks are better."),
        (DEL, "I miss Halifax sometimes, you know. The donairs here are a crime."),
    ]),
    ("12:40 pm on 14 February, 2026", [
        (GRA, "Happy Valentine's! Any plans with the marine biologist?"),
        (DEL, "Ansel's taking me whale watching. In February. In the rain."),
        (GRA, "Romance is dead, long live romance."),
        (DEL, "Margot says hi btw. She misses your puns at standup."),
        (GRA, "Tell her Larchfield appreciates my puns."),
        (DEL, "They don't, do they"),
        (GRA, "They tolerate them."),
    ]),
    ("5:20 pm on 3 May, 2026", [
        (DEL, "Calgary flights booked for the 23rd! You're buying the first round."),
        (GRA, "Deal. Dumpling is coming, he's never seen mountains."),
        (DEL, "He'll eat one."),
        (GRA, "Probably."),
    ]),
])
QUESTIONS_2 = [
    q("Which city does Delphine live in now?", "Victoria", "move", "Victoria", ["victoria"], "Halifax",
      ["halifax"]),
    q("Where does Grady work now?", "Larchfield Games", "job", "Larchfield Games", ["larchfield"],
      "Northmoss Software", ["northmoss"],
      also={"Larchfield Games": ["Larchfield"], "Northmoss Software": ["Northmoss"]}),
    q("When was Bluefin 3.0 released?", "9 June 2025", "date moved twice", "9 June", ["rel3"], "17 March",
      ["rel1"], intermediate="28 April", intermediate_at=["rel2"]),
    q("When are Delphine and Grady going to the NorthDev Summit in Toronto?", "cancelled", "cancelled",
      "cancelled", ["toronto_off", "toronto_off2"], "22 October", ["toronto1"]),
    q("Who is Delphine's partner currently?", "Ansel", "relationship", "Ansel", ["ansel"], "Remy", ["remy"]),
    q("What is Grady's email address?", "gbeaulieu@larchfieldgames.com", "contact", "gbeaulieu@larchfieldgames.com",
      ["mail2"], "grady.b@northmoss.ca", ["mail1"]),
    q("Which hockey team does Delphine cheer for now?", "the Victoria Royals", "preference", "Victoria Royals",
      ["royals"], "Halifax Mooseheads", ["remy"],
      also={"Victoria Royals": ["Royals"], "Halifax Mooseheads": ["Mooseheads"]}),
    q("Which city did Delphine live in before Victoria?", "Halifax", "move", "Victoria", ["victoria"], "Halifax",
      ["halifax"], past=True),
    q("What date was Bluefin 3.0 first meant to ship?", "17 March 2025", "date moved twice", "9 June", ["rel3"],
      "17 March", ["rel1"], intermediate="28 April", intermediate_at=["rel2"], past=True),
    q("Where did Grady work before Larchfield Games?", "Northmoss Software", "job", "Larchfield Games",
      ["larchfield"], "Northmoss Software", ["northmoss"], past=True,
      also={"Larchfield Games": ["Larchfield"], "Northmoss Software": ["Northmoss"]}),
]
NONE_2 = [{"question": "What instrument does Delphine play?", "absent": "instrument"},
          {"question": "What is Grady's daughter called?", "absent": "daughter"}]


# -- third-3: Morag (Inverness, then Oban), retired, and her younger friend Thandi (Cape Town)

MOR, THA = "Morag", "Thandi"
CHAT_3 = labelled_conversation(MOR, THA, [
    ("7:05 pm on 26 January, 2025", [
        (THA, "Morag!! happy new year, very late. did you survive the dark?"),
        (MOR, "Just about. I've been reading seed catalogues in bed like an old woman, which I am."),
        (THA, "😂 a glamorous old woman"),
        (MOR, "It's blowing a gale here in Inverness, the wheelie bins have been rolling down the street since "
              "lunchtime.", "inverness"),
        (THA, "it's 33 degrees here and I'm lying on the clinic floor because the tiles are cold"),
        (MOR, "How is the animal hospital? Still enjoying it?"),
        (THA, "mostly! Kloofview Animal Hospital got a new vet who names every patient after a rugby position. "
              "we have a very fat pug called Prop Forward", "kloofview"),
        (MOR, "Marvellous. Write this down before I forget: the landline here is 01463 712 904. My mobile is "
              "hopeless in this house, the walls are too thick.", "phone1"),
        (THA, "saved ✅ and you have my whatsapp obvs"),
        (MOR, "I do, dear. It's the only reason I know what a 'voice note' is."),
        (THA, "Sizwe says hi btw. he still pretends he'll come birding with us one day", "sizwe"),
        (MOR, "Tell him the binoculars are waiting."),
    ]),
    ("6:20 pm on 9 March, 2025", [
        (MOR, "Well, I've done it. The house is sold. My knees have voted against those stairs for the last "
              "time."),
        (THA, "MORAG!!! where are you going??"),
        (MOR, "Oban. My sister's there and the flat is all on one floor."),
        (THA, "by the sea! you'll be the wildest swimmer in Argyll"),
        (MOR, "I'll be the oldest, at any rate."),
        (MOR, "Other news: the hospital finally wrote. Cataract operation on 3 June, so I'll see the eagles "
              "properly again.", "cat1"),
        (THA, "yay! the left eye?"),
        (MOR, "The left. The right is holding up, like the rest of me."),
        (THA, "and you're STILL coming to Cape Town in November?? flights booked??"),
        (MOR, "Booked and paid for. I land on 14 November and you'll not be rid of me for three weeks.", "ct1"),
        (THA, "I'm making a list. penguins, Kirstenbosch, my gran's bobotie"),
        (MOR, "The bobotie first, please."),
    ]),
    ("8:45 pm on 4 May, 2025", [
        (THA, "how's the packing going?? still in the draughty house with the stairs?"),
        (MOR, "Not since April, dear. Three weeks in a wee flat above the ferry pier in Oban, and I still can't "
              "find the teaspoons.", "oban"),
        (THA, "ferry pier!! do you wave at the boats"),
        (MOR, "Every single one. The ferrymen think I'm a local character already."),
        (MOR, "The hospital has been in touch again. Since I've moved they've rescheduled me to the one here: "
              "22 July.", "cat2"),
        (THA, "at least it's closer?"),
        (MOR, "Five minutes on foot. I could go in my slippers."),
        (THA, "ok my news. Sizwe and I broke up. it was mutual-ish. mostly mutual. I'm fine. I'm eating a lot of "
              "rusks"),
        (MOR, "Oh, pet. I'm sorry. Rusks are a fine remedy. So is a long walk."),
        (THA, "also I have a tiny ginger kitten to distract me!! she came in from a drain at work, her name is "
              "Biltong 🐱", "biltong"),
        (MOR, "Biltong! You young people."),
    ]),
    ("10:00 am on 29 June, 2025", [
        (MOR, "You'll laugh. The surgeon has broken his wrist falling off a paddleboard. Third letter: "
              "9 September. I've pinned it to the fridge so I don't forget which one is real.", "cat3"),
        (THA, "a PADDLEBOARD 😭 at his age?"),
        (MOR, "He's forty. At my age I'd understand it."),
        (THA, "sooo. work news. I switched jobs! Sandpiper Marine Rescue in Hout Bay took me on, I spend my days "
              "bottle-feeding orphaned seal pups", "sandpiper"),
        (MOR, "Seal pups! Thandi, that's what you always talked about."),
        (THA, "I cried on day one. a pup sneezed on me. best day of my life"),
        (MOR, "We have seals here too, you know. They lie on the rocks by the distillery looking smug."),
        (THA, "scottish seals are just south african seals with better accents"),
        (MOR, "I'm writing that down."),
        (THA, "what's the number at the new flat? the Inverness one just rings and rings"),
        (MOR, "Write this down, dear: 01631 566 218. The telephone man came on Tuesday.", "phone2"),
        (THA, "saved!! the telepone man 😂 so formal"),
    ]),
    ("7:30 pm on 28 September, 2025", [
        (THA, "how's the eye?? 👀"),
        (MOR, "Extraordinary. I can read the names on the fishing boats from my window. I hadn't realised how grey "
              "everything had gone."),
        (THA, "so happy!!"),
        (MOR, "The news isn't all good, though. The eye doctor won't let me fly that far this year, so I've "
              "cancelled Cape Town. I'm heartbroken, dear.", "ct_off"),
        (THA, "noooo 😢 but your eye first. always"),
        (MOR, "The airline was very decent about it. I have a voucher for next year."),
        (THA, "then next year it is. the penguins will wait"),
        (THA, "also... there's someone. Kagiso. he volunteers at the rescue on weekends, he's terrible at feeding "
              "pups but very good at making me laugh", "kagiso"),
        (MOR, "Terrible at pups but good at laughs. I like him already."),
        (THA, "and Biltong has a new name! Kagiso said you can't call a cat after dried meat, so she's Mielie now "
              "🌽", "mielie"),
        (MOR, "Mielie. Much more dignified."),
    ]),
    ("9:15 pm on 7 December, 2025", [
        (MOR, "The Christmas lights are up along the front. The whole town looks like a shortbread tin."),
        (THA, "send pics!!"),
        (MOR, "I shall, once I work out the camera. Do you know, I still dream I'm climbing the stairs in the old "
              "Inverness house."),
        (THA, "your knees are having nightmares"),
        (MOR, "Precisely."),
        (THA, "Mielie knocked the tree over already. Kagiso says it's performance art"),
        (MOR, "And how are you two?"),
        (THA, "really good. he cooks. he CLEANS. my gran approves, which has literally never happened"),
        (MOR, "Your gran approving is worth more than any ring."),
    ]),
    ("8:00 am on 22 February, 2026", [
        (THA, "MORAG. wake up"),
        (MOR, "I've been up since six, dear. Old ladies and gulls."),
        (THA, "Kagiso proposed on Lion's Head at sunrise!! I said yes before he finished the sentence 😭💍",
         "proposal"),
        (MOR, "Oh, Thandi! I'm so happy I've spilled my tea all over the crossword."),
        (THA, "you HAVE to come to the wedding. it's next year, plenty of time for the eye doctor to say yes"),
        (MOR, "Wild horses, dear. Wild horses."),
        (THA, "Sizwe texted me congrats, can you believe it. very grown up of him"),
        (MOR, "People do grow up. Even the ones who never came birding."),
        (MOR, "I've joined a group of ladies who swim in the bay every Tuesday, by the way. The water is "
              "7 degrees. I scream every time."),
        (THA, "MORAG. legend 🥶"),
    ]),
])
QUESTIONS_3 = [
    q("Where does Morag live now?", "Oban", "move", "Oban", ["oban"], "Inverness", ["inverness"]),
    q("Where does Thandi work now?", "Sandpiper Marine Rescue, in Hout Bay", "job", "Sandpiper Marine Rescue",
      ["sandpiper"], "Kloofview Animal Hospital", ["kloofview"],
      also={"Sandpiper Marine Rescue": ["Sandpiper"], "Kloofview Animal Hospital": ["Kloofview"]}),
    q("When did Morag have her cataract operation?", "9 September 2025", "date moved twice", "9 September",
      ["cat3"], "3 June", ["cat1"], intermediate="22 July", intermediate_at=["cat2"]),
    q("When is Morag flying to Cape Town?", "cancelled", "cancelled", "cancelled", ["ct_off"], "14 November",
      ["ct1"]),
    q("Who is Thandi going to marry?", "Kagiso", "relationship", "Kagiso", ["proposal"], "Sizwe", ["sizwe"]),
    q("What is Morag's phone number?", "01631 566 218", "contact", "01631 566 218", ["phone2"], "01463 712 904",
      ["phone1"]),
    q("What is Thandi's cat called now?", "Mielie", "pet", "Mielie", ["mielie"], "Biltong", ["biltong"]),
    q("Where did Morag live before she moved to Oban?", "Inverness", "move", "Oban", ["oban"], "Inverness",
      ["inverness"], past=True),
    q("What date was Morag's cataract operation first booked for?", "3 June 2025", "date moved twice",
      "9 September", ["cat3"], "3 June", ["cat1"], intermediate="22 July", intermediate_at=["cat2"], past=True),
    q("What was Thandi's kitten called before it was renamed?", "Biltong", "pet", "Mielie", ["mielie"], "Biltong",
      ["biltong"], past=True),
]
NONE_3 = [{"question": "What is Thandi's brother called?", "absent": "brother"},
          {"question": "Which school did Thandi go to?", "absent": "school"}]

#: Per chat, a question about now that shares no word with the line that answers it.
NO_SHARED_WORD = {"third-1": "Where is Ishani based these days?", "third-2": "Who is Delphine's partner currently?",
                  "third-3": "Who is Thandi going to marry?"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.casefold().replace("'s", "")))


def build() -> list[dict]:
    samples = [sample("third-1", CHAT_1, QUESTIONS_1, NONE_1), sample("third-2", CHAT_2, QUESTIONS_2, NONE_2),
               sample("third-3", CHAT_3, QUESTIONS_3, NONE_3)]
    for s in samples:
        said = {t["dia_id"]: t["text"] for k, v in s["conversation"].items() if isinstance(v, list) for t in v}
        index = next(i for i, qa in enumerate(s["qa"]) if qa["question"] == NO_SHARED_WORD[s["sample_id"]])
        note = next(n for n in s["changed_facts_notes"] if n["q"] == index)
        for dia in note["latest_evidence"]:
            shared = _words(s["qa"][index]["question"]) & _words(said[dia])
            assert not shared, (s["sample_id"], dia, shared)
    return samples


if __name__ == "__main__":
    write(build(), "changed-facts-third.json")
