"""Writes bench/data/changed-facts-second.json: a second unseen English changed-facts set.

Like ``bench/_make_changed_facts_fresh.py`` (whose ``q`` and ``sample`` build the
notes here too): three chats written for rawrag without looking at how the app
answers, with no person, place, employer, team or pet of the other
changed-facts sets, of ``bench/data/yes-no.json`` or of LoCoMo's conv-26, in
LoCoMo's format: university friends in Norwich (then Bath) and Belfast,
cousins in Bergen and Ghent, two old flatmates in Toulouse and Tallinn (then
Helsinki), each over a year or more of 2025-2026. Facts change in them (a move,
a new job, a date moved twice, a cancelled trip, a break-up, a new partner or
an engagement, a new phone number or e-mail, a drink, a football team, a diet,
a race, a renamed cat), about half said with a change word ("switched",
"moved", "cancelled", "now"), half only as the new state ("Ten days in Bath and
I've already learned which hill not to climb with shopping"); the old state
comes back in passing now and then ("I miss the Sandviken flat a little"), a
change is sometimes told in answer to a question ("Still at Foxglove?" "Nope,
left in July") and sometimes names the old value in the same line ("Swapped
Tallinn for Helsinki").

Notes as in the fresh set: one per question, ``asks_past`` true where the right
answer is the ``stale`` value, ``cue`` whether a latest statement holds an
English change word. A turn is written with a label where a note cites it; the
dia ids are worked out from the labels.

    python bench/_make_changed_facts_second.py   # rewrites the file
"""

from __future__ import annotations

from _make_changed_facts import labelled_conversation
from _make_changed_facts_fresh import q, sample, write

# -- second-1: Tamsin (Norwich, then Bath) and Rohan (Belfast), university friends

TAM, RO = "Tamsin", "Rohan"
CHAT_1 = labelled_conversation(TAM, RO, [
    ("7:35 pm on 19 January, 2025", [
        (RO, "Tam! Happy new year, bit late. Did you survive the family Christmas?"),
        (TAM, "Barely. Mum made three kinds of trifle and we finished all of them 😅"),
        (RO, "Respect. Belfast has been nothing but drizzle since Boxing Day."),
        (TAM, "Norwich is frozen solid. The river behind my flat had ice on it this morning, ducks strolling across "
              "like they own it.", "norwich"),
        (RO, "Ducks do own it, to be fair."),
        (TAM, "Declan wants to buy a kayak for the summer. I've reminded him we live in a one-bed.", "declan"),
        (RO, "Hang it from the ceiling. Very minimalist."),
        (TAM, "I'm telling him you said that. Other news: I've finally booked my driving test! 12 May, ten in the "
              "morning.", "test1"),
        (RO, "Tamsin behind the wheel. Norfolk, lock your doors."),
        (TAM, "How's the bank?"),
        (RO, "Same as ever. Eight hours of mortgage forms at Foxglove Bank and then home.", "foxglove"),
        (RO, "The flat white from the kiosk downstairs is the only thing keeping me alive.", "flatwhite"),
        (TAM, "Living the dream."),
    ]),
    ("8:10 pm on 2 March, 2025", [
        (TAM, "Ro, are you around? Small rant incoming"),
        (RO, "Always. Go."),
        (TAM, "The test centre emailed. Examiner shortage, so I've been pushed back to 30 June. Seven more weeks "
              "of my instructor's aftershave.", "test2"),
        (RO, "Nooo. Is it the one who hums?"),
        (TAM, "Hums AND taps the dashboard. Anyway. Krakow! Are we actually doing this?"),
        (RO, "We are. Found flights for 7 November, four nights, back on the 11th.", "krakow1"),
        (TAM, "Yes!! Pierogi every single day, I'm not negotiating on that."),
        (RO, "Salt mine tour too. Someone at work says the cafés in Kazimierz are the best in Poland. Booked, "
             "confirmation's in your inbox ✈️"),
        (TAM, "Also Declan's been a bit off lately. Quiet, working late all the time."),
        (RO, "Want me to have a word? I'm very intimidating from across the water."),
        (TAM, "Ha. No, I'll talk to him at the weekend."),
    ]),
    ("9:25 pm on 20 April, 2025", [
        (RO, "How did the talk go? You went quiet on me."),
        (TAM, "We split up. Properly this time, not a 'break'. He's staying at his brother's till he finds a place."),
        (RO, "Oh Tam. I'm sorry. You OK?"),
        (TAM, "Sad but weirdly relieved? It had been dragging for months."),
        (RO, "That makes sense. Want me to come over for a weekend?"),
        (TAM, "Maybe in summer. The lease ends in July and I'm not paying for a one-bed on my own."),
        (RO, "Where would you go?"),
        (TAM, "My school friend Keziah keeps sending me listings in Bath. The design studio I freelance for is "
              "there too."),
        (RO, "Fine. Flat white number four of the day, I'm vibrating."),
        (TAM, "Four?! Your poor heart."),
        (RO, "The heart is fine. The heart is caffeinated."),
    ]),
    ("6:40 pm on 15 June, 2025", [
        (TAM, "You will not believe this. The examiner's off sick and the centre's given me another slot: "
              "8 August, quarter past two.", "test3"),
        (RO, "Third date. That has to be a record."),
        (TAM, "My instructor says he's never seen it. He hummed about it for a whole lesson."),
        (RO, "Ha! How's the flat hunt?"),
        (TAM, "Found one! Tiny place above a bakery in Bath, on a hill so steep I'll have calves of steel. I sign "
              "on Friday."),
        (RO, "Amazing!! When's the big day?"),
        (TAM, "Van's booked for the 12th of July. Keziah is lending me her dad and his estate car."),
        (RO, "Send photos of the bakery. For research purposes."),
        (TAM, "How's Foxglove?"),
        (RO, "Dull. I had an interview last week though, an energy company. Don't tell anyone."),
        (TAM, "My lips are sealed. Fingers crossed!! 🤞"),
    ]),
    ("5:15 pm on 27 July, 2025", [
        (TAM, "Ten days in Bath and I've already learned which hill not to climb with shopping.", "bath"),
        (RO, "Look at you! Is the bakery as good as it smells in the photos?"),
        (TAM, "Better. The baker gives me yesterday's buns for free because I helped him carry flour sacks."),
        (RO, "Networking."),
        (TAM, "Exactly. And you? Still counting mortgages at Foxglove?"),
        (RO, "Nope, left at the start of July. I'm a data analyst at Tidewell Energy now, I forecast wind for "
             "turbines all day.", "tidewell"),
        (TAM, "RO! The interview! Why didn't you say?!"),
        (RO, "Wanted to be sure I liked it first. I do. Nobody shouts about mortgages."),
        (TAM, "So proud of you. Does forecasting wind mean you know when to bring the washing in?"),
        (RO, "That is the main perk, yes."),
        (TAM, "Ten days to my test. I'm practising reverse parking in the supermarket car park at night."),
        (RO, "Like a getaway driver."),
    ]),
    ("7:00 pm on 14 September, 2025", [
        (RO, "Right, first things first. Did you pass??"),
        (TAM, "PASSED. Two minors. The examiner even smiled at the end."),
        (RO, "Tamsin!! Norfolk can unlock its doors."),
        (TAM, "Norfolk is safe, I live in Somerset now, keep up."),
        (RO, "Bad news from my side, though. Tidewell won't give me leave till January, so I've had to cancel "
             "Krakow. Got the flight money back at least.", "krakow_off"),
        (TAM, "Ah, gutted. But new job, I get it. Pierogi will wait for us."),
        (RO, "Next year, I promise. Any news from Bath?"),
        (TAM, "Maybe a bit. I've been seeing someone. Joaquin! He plays double bass in a jazz bar on Walcot "
              "Street.", "joaquin"),
        (RO, "A double bass player! Very cool. Is he tall? He has to be tall."),
        (TAM, "He's tall. He carries that thing up my hill like it's nothing."),
    ]),
    ("9:05 pm on 30 November, 2025", [
        (TAM, "How's Belfast? Christmas markets up yet?"),
        (RO, "Up and already sold out of mulled cider. Confession time: I've switched from flat whites to matcha. "
             "Tidewell has a little matcha bar and I'm a convert.", "matcha"),
        (TAM, "Who ARE you"),
        (RO, "A calmer man. My hands have stopped shaking."),
        (TAM, "I'll believe it when I see you turn down an espresso."),
        (RO, "How's the jazz man?"),
        (TAM, "Joaquin is teaching me three chords on his old guitar. My fingers hate me."),
        (TAM, "I do miss Norwich market sometimes. The chips there were unreal and nothing here comes close."),
        (RO, "Bath has buns though. Don't be greedy."),
        (TAM, "Fair. The buns are elite."),
    ]),
    ("4:30 pm on 8 February, 2026", [
        (RO, "Happy birthday for tomorrow! Any plans?"),
        (TAM, "Joaquin's cooking paella and then we're walking up to the viewpoint if it doesn't rain."),
        (RO, "It'll rain."),
        (TAM, "It'll rain. 🌧️ How's work?"),
        (RO, "Busy, storm season is a forecaster's Christmas. The Foxglove lot still invite me to their pub quiz "
             "though. We came fourth out of five last time."),
        (TAM, "Are we rebooking Krakow for spring then?"),
        (RO, "Let me see what leave I get. May, maybe."),
        (TAM, "I'll hold you to it. I can drive us to the airport now!"),
        (RO, "Terrifying. Lovely. Both."),
    ]),
])
QUESTIONS_1 = [
    q("Which city does Tamsin live in now?", "Bath", "move", "Bath", ["bath"], "Norwich", ["norwich"]),
    q("Where does Rohan work now?", "Tidewell Energy, as a data analyst", "job", "Tidewell Energy",
      ["tidewell"], "Foxglove Bank", ["foxglove"],
      also={"Tidewell Energy": ["Tidewell"], "Foxglove Bank": ["Foxglove"]}),
    q("When did Tamsin take her driving test?", "8 August 2025", "date moved twice", "8 August", ["test3"],
      "12 May", ["test1"], intermediate="30 June", intermediate_at=["test2"]),
    q("Who is Tamsin dating now?", "Joaquin", "relationship", "Joaquin", ["joaquin"], "Declan", ["declan"]),
    q("When are Tamsin and Rohan going to Krakow?", "cancelled", "cancelled", "cancelled", ["krakow_off"],
      "7 November", ["krakow1"]),
    q("What does Rohan drink at work now?", "matcha", "preference", "matcha", ["matcha"], "flat white",
      ["flatwhite"]),
    q("Which city did Tamsin live in before she moved to Bath?", "Norwich", "move", "Bath", ["bath"],
      "Norwich", ["norwich"], past=True),
    q("What date was Tamsin's driving test first booked for?", "12 May 2025", "date moved twice", "8 August",
      ["test3"], "12 May", ["test1"], intermediate="30 June", intermediate_at=["test2"], past=True),
    q("Where did Rohan work before Tidewell Energy?", "Foxglove Bank", "job", "Tidewell Energy", ["tidewell"],
      "Foxglove Bank", ["foxglove"], past=True,
      also={"Tidewell Energy": ["Tidewell"], "Foxglove Bank": ["Foxglove"]}),
]
NONE_1 = [{"question": "What is the name of Tamsin's landlord?", "absent": "landlord"}]


# -- second-2: Solveig (Bergen) and her cousin Caspar (Ghent) ------------------

SOL, CAS = "Solveig", "Caspar"
CHAT_2 = labelled_conversation(SOL, CAS, [
    ("10:20 am on 9 February, 2025", [
        (CAS, "Solveig! Mama says you have news and I have to hear it from you."),
        (SOL, "Aunt Hilde can't keep a secret to save her life 😂 Eskil proposed! On the funicular up Fløyen, in "
              "thick fog."),
        (CAS, "WHAT! Congratulations!! Did the fog at least clear for the photo?"),
        (SOL, "Not at all. It's a photo of two grey blobs. I love it."),
        (CAS, "Have you set a date?"),
        (SOL, "Not yet, we're still looking at venues. For the moment our little flat in Sandviken is buried in "
              "wedding magazines.", "sandviken"),
        (CAS, "Ghent is all rain and carnival posters. I'm still on night planning at Scheldt Freight, so I mostly "
              "see the city in the dark.", "scheldt"),
        (SOL, "Vampire cousin. Do you at least get to the football?"),
        (CAS, "Every home game. KAA Gent or nothing, you know me. Season ticket behind the goal.", "gent"),
        (SOL, "Wrap up warm."),
        (CAS, "Always. Scarf, hat, two pairs of socks."),
    ]),
    ("7:45 pm on 6 April, 2025", [
        (SOL, "We have a date! 13 June next year, at a boathouse on the fjord. Save it!!", "wed1"),
        (CAS, "Saved, circled, underlined. Can I bring a plus-one?"),
        (SOL, "Only if it's a human. How's the cat?"),
        (CAS, "Fennel knocked my coffee into my laptop bag. Twice this week. Ginger cats have no conscience.",
         "fennel"),
        (SOL, "Fennel is an icon."),
        (CAS, "Fennel is a menace."),
        (SOL, "Also save my number, I keep forgetting you don't have it: 412 58 903", "phone1"),
        (CAS, "Saved as 'Cousin Solveig (fjord)'."),
        (SOL, "Perfect. I'm training for the Ulriken Uphill in May, seven hundred metres straight up a mountain.",
         "ulriken"),
        (CAS, "Why would anyone do that to themselves"),
        (SOL, "For the waffles at the top, obviously."),
        (CAS, "Can't argue with waffles."),
    ]),
    ("9:30 pm on 22 June, 2025", [
        (CAS, "How did the mountain race go??"),
        (SOL, "Finished! Legs like jelly. Wedding trouble though: the boathouse flooded in the spring storms and "
              "they're rebuilding, so they've pushed us to 5 September.", "wed2"),
        (CAS, "Oh no. Still next year?"),
        (SOL, "Yes, 2026, just a later date. Eskil says more time to learn to dance."),
        (CAS, "Can he not dance?"),
        (SOL, "He dances like a heron."),
        (CAS, "Ha! My news: I had an interview at a brewery. Small place near the Dampoort, they want someone to "
              "run the taproom and the deliveries."),
        (SOL, "Caspar! That's your dream job!"),
        (CAS, "Don't jinx it."),
        (SOL, "Fennel would love a brewery. All those sacks to sleep on."),
        (CAS, "She'd be the brewery's mascot within a week."),
    ]),
    ("6:15 pm on 31 August, 2025", [
        (SOL, "Big news from Bergen: we moved to Nordnes last weekend! Five minutes from the aquarium, I can hear "
              "the sea lions from the balcony.", "nordnes"),
        (CAS, "Sea lions!! Do they bark at night?"),
        (SOL, "Only at feeding time. Eskil barks back."),
        (CAS, "Is the flat nice?"),
        (SOL, "Small, steep stairs, big windows. Worth it."),
        (CAS, "My turn: first month at Vlaskop Brewery done. I come home smelling of hops every night and I've "
              "never been happier.", "vlaskop"),
        (SOL, "So they hired you! Why didn't you tell me?!"),
        (CAS, "I'm telling you 😄 Wanted to survive the first month first."),
        (SOL, "Does Fennel approve?"),
        (CAS, "Fennel sniffs my jeans every evening and looks betrayed."),
        (SOL, "Ha! Bring her a bottle cap to play with."),
    ]),
    ("8:00 pm on 16 November, 2025", [
        (SOL, "Save this one and bin the old: 936 07 214. New phone, new contract.", "phone2"),
        (CAS, "Saved. Old one deleted."),
        (SOL, "How's my favourite cat?"),
        (CAS, "About that. My niece Saar stayed for a week and decided Fennel was 'a boring name for a "
              "vegetable'. She's Brioche now, and she actually comes when called.", "brioche"),
        (SOL, "Brioche! Honestly, better."),
        (CAS, "It is. She looks like a brioche. Round and golden."),
        (SOL, "I've signed up for the Bergen City Marathon in April instead of doing the mountain race again. "
              "The full 42 km. Eskil thinks I've lost my mind.", "marathon"),
        (CAS, "You have. Proudly."),
        (SOL, "Long runs every Saturday along the harbour. I eat like a bear."),
        (CAS, "I'll send you Belgian chocolate as fuel."),
        (SOL, "That's the kind of support I need."),
    ]),
    ("7:20 pm on 25 January, 2026", [
        (SOL, "Wedding update, hopefully the last one. The boathouse double-booked September, so it's 17 October "
              "now. Same boathouse, same fjord.", "wed3"),
        (CAS, "17 October. Written in pen this time?"),
        (SOL, "In pen. I refuse to print the invitations a third time."),
        (CAS, "Other news, don't shout: I've switched to Club Brugge. Vlaskop pours the beer at their fan bar and "
              "the whole team goes to the games.", "brugge"),
        (SOL, "CASPAR. After all those winters behind the goal in Ghent?"),
        (CAS, "I know, I know. My dad hasn't spoken to me since Sunday."),
        (SOL, "Turncoat cousin."),
        (CAS, "The beer's better in Bruges, that's all I'll say."),
        (SOL, "How's Brioche?"),
        (CAS, "Asleep in the box of chocolate I was meant to post you. I'll send another."),
    ]),
    ("11:10 am on 12 April, 2026", [
        (SOL, "Twelve days to the marathon. I'm tapering and I'm unbearable."),
        (CAS, "You were unbearable before. Now you're just hungry as well."),
        (SOL, "Rude but true. Eskil hides the biscuits."),
        (CAS, "How's the new neighbourhood treating your legs?"),
        (SOL, "I miss the Sandviken flat a little, at least the walk home was flat. Nordnes is all stairs."),
        (CAS, "Free hill training."),
        (SOL, "That's what Eskil says. I've stopped listening to Eskil."),
        (CAS, "I've started practising my wedding speech."),
        (SOL, "No embarrassing stories, please."),
        (CAS, "Only three. Four at most. 😇"),
    ]),
])
QUESTIONS_2 = [
    q("Which neighbourhood of Bergen does Solveig live in now?", "Nordnes", "move", "Nordnes", ["nordnes"],
      "Sandviken", ["sandviken"]),
    q("Where does Caspar work now?", "Vlaskop Brewery", "job", "Vlaskop Brewery", ["vlaskop"], "Scheldt Freight",
      ["scheldt"], also={"Vlaskop Brewery": ["Vlaskop"], "Scheldt Freight": ["Scheldt"]}),
    q("When is Solveig's wedding?", "17 October 2026", "date moved twice", "17 October", ["wed3"], "13 June",
      ["wed1"], intermediate="5 September", intermediate_at=["wed2"]),
    q("What is Solveig's phone number?", "936 07 214", "contact", "936 07 214", ["phone2"], "412 58 903",
      ["phone1"]),
    q("What is Caspar's cat called now?", "Brioche", "pet", "Brioche", ["brioche"], "Fennel", ["fennel"]),
    q("Which race is Solveig training for now?", "the Bergen City Marathon", "preference", "Bergen City Marathon",
      ["marathon"], "Ulriken Uphill", ["ulriken"],
      also={"Bergen City Marathon": ["Bergen Marathon"], "Ulriken Uphill": ["Ulriken"]}),
    q("Which neighbourhood did Solveig live in before she moved to Nordnes?", "Sandviken", "move", "Nordnes",
      ["nordnes"], "Sandviken", ["sandviken"], past=True),
    q("What was Caspar's cat called before she was renamed?", "Fennel", "pet", "Brioche", ["brioche"], "Fennel",
      ["fennel"], past=True),
    q("Which football team did Caspar support before Club Brugge?", "KAA Gent", "preference", "Club Brugge",
      ["brugge"], "KAA Gent", ["gent"], past=True, also={"Club Brugge": ["Brugge"], "KAA Gent": ["Gent"]}),
]
NONE_2 = [{"question": "Which university did Caspar go to?", "absent": "university"}]


# -- second-3: Oonagh (Toulouse) and Yusuf (Tallinn, then Helsinki), old flatmates

OON, YUS = "Oonagh", "Yusuf"
CHAT_3 = labelled_conversation(OON, YUS, [
    ("9:40 pm on 23 March, 2025", [
        (YUS, "Oonagh! Long time. Is Toulouse still pink?"),
        (OON, "Pinker than ever, the sunsets on the brick are ridiculous. How's Tallinn?"),
        (YUS, "Tallinn is still in a coat, the sea's half frozen. My flat in Kalamaja has a wood stove though.",
         "tallinn"),
        (OON, "A wood stove! Very romantic. Florian says hi, by the way, he's making cassoulet for his parents "
              "tonight.", "florian"),
        (YUS, "Hi Florian! Tell him I still dream about that cassoulet."),
        (OON, "How's the thesis?"),
        (YUS, "Nearly there! The defence is set for 3 June. I'm terrified.", "def1"),
        (OON, "You'll be brilliant. I'll post you a lucky croissant."),
        (YUS, "Please. I've been vegetarian since January, the institute canteen has me eating lentils every "
              "night and I feel amazing.", "veg"),
        (OON, "Lentils every night is not living, Yusuf."),
        (YUS, "Says the woman who handles duck fat all day."),
        (OON, "Excuse me, I'm a sous-chef at Chez Marceline. Duck fat is my art.", "marceline"),
        (YUS, "Fair. Very fair. 🦆"),
    ]),
    ("8:15 pm on 11 May, 2025", [
        (YUS, "Small disaster: my supervisor's having hip surgery, so the defence is postponed to 16 September.",
         "def2"),
        (OON, "Oh no! Is he OK?"),
        (YUS, "He'll be fine. I'm the one with a three-month thesis hangover."),
        (OON, "More time for lentils."),
        (YUS, "😑"),
        (OON, "OK, hear me out: the Pyrenees. Four days, mountain huts, no signal. Late August?"),
        (YUS, "YES. Let's start on 22 August, I'll fly into Toulouse the day before.", "pyr1"),
        (OON, "Send me your email and I'll forward the hut bookings, WhatsApp eats my attachments."),
        (YUS, "ydemir@balticmaritime.ee, the institute one. I check it every five minutes anyway.", "mail1"),
        (OON, "Of course you do."),
        (YUS, "How's the restaurant?"),
        (OON, "Chaos. Marceline shouts, I chop. I want my own thing one day."),
        (YUS, "A food truck! You've been talking about it since we were twenty."),
    ]),
    ("6:55 pm on 13 July, 2025", [
        (OON, "So. Florian and I are done."),
        (YUS, "Oh no. What happened?"),
        (OON, "Nothing dramatic. He took a job in Brittany and I'm not leaving the south. We both cried, then we "
              "split the plants."),
        (YUS, "I'm so sorry, Oonagh. Do you need anything?"),
        (OON, "Cake and distraction. And a confession: I've cancelled the hut bookings. I can't cover the rent "
              "alone and go to the Pyrenees, and Marceline won't give me August off anyway.", "pyr_off"),
        (YUS, "Don't worry about it at all. The mountains will still be there."),
        (OON, "They're very reliable, mountains."),
        (YUS, "Distraction, as requested: I found a sauna on a boat in the harbour. You sit there and then jump "
              "in the sea."),
        (OON, "In July? Is the sea even warm?"),
        (YUS, "It is not warm. It is never warm."),
        (OON, "Secret of the day: I've been saving for a truck. Don't tell Marceline."),
        (YUS, "Your secret is safe in Estonia."),
    ]),
    ("9:10 pm on 24 August, 2025", [
        (YUS, "Defence news. The external examiner can't do September, so the committee found a slot: 12 January. "
              "Room booked, signatures done.", "def3"),
        (OON, "Third date lucky. Are you OK with waiting?"),
        (YUS, "Honestly yes, because I've got a postdoc offer. In Helsinki! It starts in September."),
        (OON, "YUSUF! Are you taking it?"),
        (YUS, "Already signed. It's two hours on the ferry, I'll come back for the defence."),
        (OON, "Helsinki has saunas everywhere. You love saunas."),
        (YUS, "I do love saunas."),
        (OON, "I'm jealous. It's 38 degrees in my kitchen."),
        (YUS, "Come visit in winter, you'll forget what warm means."),
        (OON, "Deal. I'll bring cassoulet in a jar."),
    ]),
    ("7:30 pm on 12 October, 2025", [
        (YUS, "Swapped Tallinn for Helsinki three weeks ago. My building in Kallio has a sauna in the basement "
              "and I've used it every single night.", "helsinki"),
        (OON, "Every night! You'll dissolve."),
        (YUS, "Worth it. The lab has a ping-pong table and the coffee is strong enough to stand a spoon in."),
        (OON, "Very Finnish."),
        (YUS, "Put this address in your phone: yusuf.d@kolmio.fi. The institute one dies after the defence.",
         "mail2"),
        (OON, "Saved."),
        (YUS, "And you? Still chopping at Chez Marceline?"),
        (OON, "Nope, left in September. I have my own crêpe truck now, La Galette Volante, parked by the canal "
              "most days.", "galette"),
        (YUS, "OONAGH! The truck! You did it!"),
        (OON, "I did it! Buckwheat galettes, salted caramel, a queue at lunch."),
        (YUS, "Save me a galette. A vegetarian one."),
        (OON, "Mushroom and goat's cheese. It's already yours."),
    ]),
    ("8:45 pm on 18 January, 2026", [
        (OON, "DOCTOR Yusuf! How did it go?"),
        (YUS, "Passed! They asked about my error bars for forty minutes and then shook my hand."),
        (OON, "Forty minutes on error bars. What a world."),
        (YUS, "I've gone fully vegan, by the way. The canteen at the lab does an oat porridge that changed my "
              "life.", "vegan"),
        (OON, "First lentils, then porridge. Who are you."),
        (YUS, "A happy man. Any news from the canal?"),
        (OON, "Maybe. There's a pastry chef with a truck next to mine. Teodor. He's from Cluj and he makes "
              "cheese doughnuts, and we've been seeing each other since November.", "teodor"),
        (YUS, "Oonagh!! Truck romance!"),
        (OON, "He brings me doughnuts at closing time. I bring him galettes. It's very efficient."),
        (YUS, "A partnership built on pastry."),
    ]),
    ("1:20 pm on 10 May, 2026", [
        (OON, "Yusuf. Are you sitting down?"),
        (YUS, "I'm in a sauna. Technically sitting."),
        (OON, "Teodor proposed! He folded the ring into a galette and I nearly ate it. We're engaged!!",
         "engaged"),
        (YUS, "WHAT! Congratulations!! Did you bite it?"),
        (OON, "Almost. One tooth hit it. Very romantic."),
        (YUS, "I miss the old wood stove in Kalamaja sometimes, but this news beats every sauna in Finland."),
        (OON, "You're invited to everything, obviously. Next summer, somewhere with a lot of crêpes."),
        (YUS, "I'll fly in. Maybe we finally do the Pyrenees the week after."),
        (OON, "Marceline came to the truck last week and ordered three galettes. Didn't say a word."),
        (YUS, "The highest praise there is."),
    ]),
])
QUESTIONS_3 = [
    q("Which city does Yusuf live in now?", "Helsinki", "move", "Helsinki", ["helsinki"], "Tallinn", ["tallinn"]),
    q("Where does Oonagh work now?", "her own crêpe truck, La Galette Volante", "job", "La Galette Volante",
      ["galette"], "Chez Marceline", ["marceline"],
      also={"La Galette Volante": ["Galette Volante", "crêpe truck"], "Chez Marceline": ["Marceline"]}),
    q("When was Yusuf's PhD defence?", "12 January 2026", "date moved twice", "12 January", ["def3"], "3 June",
      ["def1"], intermediate="16 September", intermediate_at=["def2"]),
    q("Who is Oonagh engaged to?", "Teodor", "relationship", "Teodor", ["teodor", "engaged"], "Florian",
      ["florian"], category=1),
    q("When are Oonagh and Yusuf hiking in the Pyrenees?", "cancelled", "cancelled", "cancelled", ["pyr_off"],
      "22 August", ["pyr1"]),
    q("What is Yusuf's email address?", "yusuf.d@kolmio.fi", "contact", "yusuf.d@kolmio.fi", ["mail2"],
      "ydemir@balticmaritime.ee", ["mail1"]),
    q("Where did Oonagh work before she started her crêpe truck?", "Chez Marceline", "job", "La Galette Volante",
      ["galette"], "Chez Marceline", ["marceline"], past=True,
      also={"La Galette Volante": ["Galette Volante", "crêpe truck"], "Chez Marceline": ["Marceline"]}),
    q("What date was Yusuf's PhD defence first set for?", "3 June 2025", "date moved twice", "12 January",
      ["def3"], "3 June", ["def1"], intermediate="16 September", intermediate_at=["def2"], past=True),
    q("What diet did Yusuf follow before he went vegan?", "vegetarian", "preference", "vegan", ["vegan"],
      "vegetarian", ["veg"], past=True),
]
NONE_3 = [{"question": "What is Yusuf's grandmother called?", "absent": "grandmother"}]


def build() -> list[dict]:
    return [sample("second-1", CHAT_1, QUESTIONS_1, NONE_1), sample("second-2", CHAT_2, QUESTIONS_2, NONE_2),
            sample("second-3", CHAT_3, QUESTIONS_3, NONE_3)]


if __name__ == "__main__":
    write(build(), "changed-facts-second.json")
