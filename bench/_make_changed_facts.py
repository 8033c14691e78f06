"""Writes bench/data/changed-facts-{zh,ja,de}.json: chats in Chinese, Japanese and German in which facts change.

Hand-written for rawrag (no copied or translated text): each language has three
chats between friends or colleagues, over several months in LoCoMo's format
(``7:12 pm on 9 February, 2025`` session dates, which the importer reads), in
the way people of that language chat: moves, new jobs, a date moved twice, a
cancelled plan, a new phone number or e-mail, a changed preference, a new
partner. Some changes are said with a change word (搬, 改, 取消; 引っ越し,
延期, 中止; umgezogen, abgesagt, gewechselt), some without one ("杭州的新家终于
收拾好了", "福岡の新しい部屋、やっと段ボール全部開けた", "Die Wohnung in Hamburg
ist endlich eingerichtet"); ``cue`` is computed here from per-language change
words and checked again by tests/test_changed_facts_set.py. The third chat of
each language says every date relatively ("下周三", "来週の火曜日", "nächsten
Donnerstag"), counted from the day of its message: a date moved there is never
written out, and its notes give the day meant.

Every question has a note (``changed_facts_notes``, ignored by the importer):

- ``kind``: move, job, date moved twice, cancelled, contact, preference, relationship;
- ``asks_past``: false for "where does she live?", true for "where did she live
  before she moved?"; a past question's right answer is the ``stale`` value;
- ``latest`` / ``latest_evidence``: the value true now and the message(s) saying it
  (``cancelled`` for a cancelled plan);
- ``stale`` / ``stale_evidence``: the superseded value and where it was said;
  ``intermediate`` / ``intermediate_evidence`` for a date moved twice;
- ``also``: other forms of a value a right answer may use (字节 for 字节跳动,
  Sony's team name for ソフトバンク).

``unanswerable`` lists questions about a person or thing the chat never
mentions (``absent``: the word the history does not contain); the right answer
is "not in your history".

    python bench/_make_changed_facts.py   # rewrites the three files
"""

from __future__ import annotations

import json
import re
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

#: Words that say a fact changed, per language: a note's ``cue`` is whether its
#: latest statement holds one (tests/test_changed_facts_set.py checks the same).
CUE = {
    "en": re.compile(r"\b(mov(?:e|ed|es|ing)|postpon\w*|reschedul\w*|rebook\w*|chang\w*|no longer|instead|now|"
                     r"any ?more|switch\w*|cancel\w*|called off|pushed back)\b", re.IGNORECASE),
    "zh": re.compile(r"搬|换|改|取消|推迟|延期|提前|不再|现在|已经|辞职|跳槽|分手|退赛"),
    "ja": re.compile(r"引っ越|変更|変え|変わ|延期|中止|キャンセル|転職|辞め|別れ|今は|もう|やめ|ずれ"),
    "de": re.compile(r"umgezogen|umziehen|umzug|gezogen|verschoben|verschieben|verlegt|abgesagt|absagen|"
                     r"storniert|jetzt|nicht mehr|stattdessen|gewechselt|wechsel|gekündigt|getrennt", re.IGNORECASE),
}


def labelled_conversation(a: str, b: str, sessions: list) -> tuple[dict, dict[str, str], dict[str, str]]:
    """LoCoMo's conversation dict from (date, [(speaker, text[, label])]) sessions, with
    label -> dia id (a note names its evidence by label) and dia id -> text."""
    conv: dict = {"speaker_a": a, "speaker_b": b}
    where: dict[str, str] = {}
    said: dict[str, str] = {}
    for number, (when, turns) in enumerate(sessions, 1):
        conv[f"session_{number}_date_time"] = when
        session = []
        for index, (who, text, *label) in enumerate(turns, 1):
            dia = f"D{number}:{index}"
            session.append({"speaker": who, "dia_id": dia, "text": text})
            said[dia] = text
            if label and label[0]:
                assert label[0] not in where, label[0]
                where[label[0]] = dia
        conv[f"session_{number}"] = session
    return conv, where, said


def conversation(a: str, b: str, sessions: list[tuple[str, list[tuple[str, str]]]]) -> dict:
    """LoCoMo's conversation dict from (date, [(speaker, text)]) sessions."""
    return labelled_conversation(a, b, sessions)[0]


def sample(lang: str, sample_id: str, conv: dict, questions: list[dict], unanswerable: list[dict]) -> dict:
    said = {t["dia_id"]: t["text"] for k, v in conv.items() if isinstance(v, list) for t in v}
    qa, notes = [], []
    for index, q in enumerate(questions):
        past = q.get("asks_past", False)
        evidence = q["stale_evidence"] + q["latest_evidence"] if past else q["latest_evidence"]
        answer = q["stale"] if past else q["latest"]
        qa.append({"question": q["question"], "answer": answer, "evidence": evidence,
                   "category": 2 if q["kind"] in ("date moved twice", "cancelled") else 4})
        note = {"q": index, "kind": q["kind"], "asks_past": past,
                "cue": any(CUE[lang].search(said[d]) for d in q["latest_evidence"]),
                "latest": q["latest"], "latest_evidence": q["latest_evidence"],
                "stale": q["stale"], "stale_evidence": q["stale_evidence"]}
        for key in ("intermediate", "intermediate_evidence", "also"):
            if key in q:
                note[key] = q[key]
        notes.append(note)
    return {"sample_id": sample_id, "language": lang, "conversation": conv, "qa": qa,
            "changed_facts_notes": notes, "unanswerable": unanswerable}


def q(question, kind, latest, latest_evidence, stale, stale_evidence, **more) -> dict:
    return {"question": question, "kind": kind, "latest": latest, "latest_evidence": latest_evidence,
            "stale": stale, "stale_evidence": stale_evidence, **more}


# -- Chinese -----------------------------------------------------------------

NA, HAO = "李娜", "陈浩"
ZH_1 = conversation(NA, HAO, [
    ("8:30 pm on 12 January, 2025", [
        (HAO, "娜娜，新年快乐！成都最近冷不冷？"),
        (NA, "新年快乐！冷倒不算冷，就是阴天，一个月没见太阳了😂 我在成都住了六年还是不习惯"),
        (HAO, "哈哈，深圳这边二十多度，我穿短袖去华为上班的"),
        (NA, "羡慕！你们华为年终奖发了吗"),
        (HAO, "还没，估计要等到三月。对了，我美国签证面试约上了，5月8日，在广州领事馆"),
        (NA, "可以啊！是去出差吗"),
        (HAO, "对，公司派我去圣何塞参加一个展会。你呢，最近忙啥"),
        (NA, "老样子，每天早上一杯美式续命，不然根本起不来"),
        (HAO, "你那美式一天得两杯吧"),
        (NA, "三杯😭 对了国庆要不要一起去云南？我想去大理和丽江"),
        (HAO, "好啊！那就10月1日出发，我来看机票"),
        (NA, "一言为定！"),
    ]),
    ("9:05 pm on 3 March, 2025", [
        (HAO, "我签证面试的时间被领事馆改了，推迟到5月20日"),
        (NA, "啊，那还来得及吗？"),
        (HAO, "展会是六月底，应该来得及"),
        (NA, "那就好。我最近工作好累，天天加班"),
        (HAO, "你们公司还是那么卷啊"),
        (NA, "卷。我有时候真想换个城市重新开始"),
        (HAO, "去哪儿？"),
        (NA, "还没想好，杭州、苏州都挺喜欢的"),
        (HAO, "我微信最近老被封，有急事直接打我电话13812345678"),
        (NA, "好，存了"),
    ]),
    ("7:40 pm on 26 April, 2025", [
        (NA, "告诉你个事，我拿到杭州一家公司的offer了！"),
        (HAO, "哇！真的要走啦？"),
        (NA, "嗯，下个月底就过去。成都的房子我已经退了"),
        (HAO, "舍不得火锅吧"),
        (NA, "最舍不得的就是火锅🥲 你的面试呢？"),
        (HAO, "别提了，又推迟了，改到6月3日。这已经是第二次改了"),
        (NA, "好惨，展会赶得上吗"),
        (HAO, "悬，赶不上就让同事去"),
        (NA, "对了最近我戒咖啡了，医生说我心悸是咖啡喝太多"),
        (HAO, "三杯美式，不心悸才怪"),
        (NA, "现在每天早上泡一杯龙井，感觉人都平静了"),
        (HAO, "养生了养生了"),
    ]),
    ("10:15 pm on 15 June, 2025", [
        (NA, "杭州的新家终于收拾好了！阳台能看到一点点西湖边的山"),
        (HAO, "羡慕！发照片"),
        (NA, "小是小了点，但是离公司骑车十分钟"),
        (HAO, "今天是我在字节跳动的第一天，工牌刚拿到手"),
        (NA, "？？？你不是在华为吗，怎么突然去字节了"),
        (HAO, "那边给的多，而且做的是推荐算法，我一直想做"),
        (NA, "恭喜恭喜！那签证面试还去吗"),
        (HAO, "去了，6月3日面完了，签证也过了，不过展会轮不到我了"),
        (NA, "那也挺好"),
        (HAO, "以后有事打我这个号：15906571234"),
        (NA, "收到，存好了"),
    ]),
    ("8:50 pm on 20 August, 2025", [
        (HAO, "国庆云南的机票我看了，10月1日那班涨到一千八了"),
        (NA, "天哪……"),
        (NA, "说实话，我刚入职，国庆要值班，云南这次只能取消了，对不起！"),
        (HAO, "没事没事，工作要紧，明年再去"),
        (NA, "明年一定！"),
        (HAO, "你在杭州还喝龙井吗"),
        (NA, "天天喝，同事都说我比杭州人还杭州"),
        (HAO, "哈哈哈"),
    ]),
])
ZH_1_Q = [
    q("李娜现在住在哪个城市？", "move", "杭州", ["D4:1"], "成都", ["D1:2"], also={"杭州": ["Hangzhou"]}),
    q("李娜搬去杭州之前住在哪个城市？", "move", "杭州", ["D4:1"], "成都", ["D1:2"], asks_past=True,
      also={"成都": ["Chengdu"]}),
    q("陈浩现在在哪家公司工作？", "job", "字节跳动", ["D4:4"], "华为", ["D1:3"],
      also={"字节跳动": ["字节", "ByteDance"], "华为": ["Huawei"]}),
    q("陈浩去字节跳动之前在哪家公司工作？", "job", "字节跳动", ["D4:4"], "华为", ["D1:3"], asks_past=True,
      also={"字节跳动": ["字节", "ByteDance"], "华为": ["Huawei"]}),
    q("陈浩的签证面试是哪天？", "date moved twice", "6月3日", ["D3:6"], "5月8日", ["D1:5"],
      intermediate="5月20日", intermediate_evidence=["D2:1"]),
    q("陈浩的签证面试最初约在哪天？", "date moved twice", "6月3日", ["D3:6"], "5月8日", ["D1:5"],
      intermediate="5月20日", intermediate_evidence=["D2:1"], asks_past=True),
    q("李娜和陈浩国庆哪天出发去云南？", "cancelled", "cancelled", ["D5:3"], "10月1日", ["D1:11"]),
    q("陈浩的手机号码是多少？", "contact", "15906571234", ["D4:10"], "13812345678", ["D2:9"]),
    q("陈浩以前用的手机号码是多少？", "contact", "15906571234", ["D4:10"], "13812345678", ["D2:9"], asks_past=True),
    q("李娜现在每天早上喝什么？", "preference", "龙井", ["D3:11"], "美式", ["D1:8"],
      also={"美式": ["咖啡", "coffee", "Americano"], "龙井": ["Longjing"]}),
]
ZH_1_NONE = [
    {"question": "李娜的妹妹在哪里上大学？", "absent": "妹妹"},
    {"question": "陈浩养的狗叫什么名字？", "absent": "狗"},
]

MIN, LEI = "赵敏", "王磊"
ZH_2 = conversation(MIN, LEI, [
    ("7:20 pm on 5 September, 2025", [
        (LEI, "赵老师，开学了吧？"),
        (MIN, "开学一周了，初二三个班的语文，作文改到手软"),
        (LEI, "中学语文老师辛苦了🙏"),
        (MIN, "你呢，周末还打羽毛球吗"),
        (LEI, "打啊，每周六早上雷打不动打羽毛球，球馆就在我家楼下"),
        (MIN, "小周也说想跟你们打，他最近胖了"),
        (LEI, "带你男朋友来呗，正好缺人"),
        (MIN, "好，我跟小周说"),
        (LEI, "对了，我们读书会的资料发我邮箱吧，wanglei88@163.com"),
        (MIN, "好的，晚上发你"),
    ]),
    ("9:40 pm on 18 November, 2025", [
        (MIN, "跟你说个事……我和小周分手了"),
        (LEI, "啊？怎么了"),
        (MIN, "他要去新加坡工作，我们都不想异地，就和平分开了"),
        (LEI, "抱抱，你还好吗"),
        (MIN, "还行吧，这几天靠画画转移注意力"),
        (LEI, "你画得一直很好啊，之前那幅猫的插画我还存着"),
        (MIN, "哈哈谢谢"),
        (LEI, "对了我邮箱换成wanglei.work@outlook.com了，163那个密码忘了登不上"),
        (MIN, "好，我改一下通讯录"),
    ]),
    ("8:10 pm on 24 January, 2026", [
        (MIN, "我决定了，这学期结束就辞职"),
        (LEI, "真的假的？你不是挺喜欢教书的吗"),
        (MIN, "喜欢学生，不喜欢没完没了的检查。而且插画的约稿越来越多了"),
        (LEI, "支持你！"),
        (MIN, "周六还打球吗？我想去出出汗"),
        (LEI, "周六我都在岩馆攀岩，在跟着教练学抱石，要不要一起来？"),
        (MIN, "好啊，我还没试过"),
        (LEI, "穿宽松点的衣服就行"),
        (MIN, "上次岩馆那个阿凯，加我微信了😳"),
        (LEI, "哟～阿凯人很好的"),
    ]),
    ("3:30 pm on 14 March, 2026", [
        (MIN, "做自由插画师的第一个月，收入居然比当老师的时候还高一点"),
        (LEI, "牛！接的都是什么活"),
        (MIN, "绘本和出版社的封面，还有个游戏公司的角色设计"),
        (LEI, "太酷了"),
        (MIN, "还有件事……阿凯昨晚求婚了，我答应了💍"),
        (LEI, "！！！恭喜！！就是岩馆认识的那个阿凯？"),
        (MIN, "对，就是他，你还算半个介绍人呢"),
        (LEI, "那我得坐主桌"),
        (MIN, "必须的。请柬发你哪个邮箱？"),
        (LEI, "outlook那个，wanglei.work@outlook.com"),
    ]),
])
ZH_2_Q = [
    q("赵敏现在的另一半是谁？", "relationship", "阿凯", ["D4:5"], "小周", ["D1:6"]),
    q("赵敏和阿凯在一起之前，她的男朋友是谁？", "relationship", "阿凯", ["D4:5"], "小周", ["D1:6"], asks_past=True),
    q("王磊的邮箱地址是什么？", "contact", "wanglei.work@outlook.com", ["D2:8", "D4:10"],
      "wanglei88@163.com", ["D1:9"]),
    q("王磊以前用的邮箱地址是什么？", "contact", "wanglei.work@outlook.com", ["D2:8", "D4:10"],
      "wanglei88@163.com", ["D1:9"], asks_past=True),
    q("赵敏现在做什么工作？", "job", "插画师", ["D4:1"], "语文老师", ["D1:3"],
      also={"插画师": ["插画", "illustrator"], "语文老师": ["老师", "教书", "教师", "teacher"]}),
    q("赵敏辞职之前做什么工作？", "job", "插画师", ["D4:1"], "语文老师", ["D1:3"], asks_past=True,
      also={"插画师": ["插画", "illustrator"], "语文老师": ["老师", "教书", "教师", "teacher"]}),
    q("王磊周六一般做什么运动？", "preference", "攀岩", ["D3:6"], "羽毛球", ["D1:5"],
      also={"攀岩": ["抱石", "climbing", "bouldering"], "羽毛球": ["badminton"]}),
]
ZH_2_NONE = [{"question": "王磊的女朋友叫什么名字？", "absent": "女朋友"}]

# -- Japanese ----------------------------------------------------------------

MISAKI, KENTA = "美咲", "健太"
JA_1 = conversation(MISAKI, KENTA, [
    ("9:15 pm on 10 January, 2025", [
        (KENTA, "あけおめ！大阪はどう？"),
        (MISAKI, "あけおめ〜！大阪は相変わらず賑やかだよ。天満のアパートにもすっかり慣れた"),
        (KENTA, "いいなあ。こっちは任天堂の仕事始めでバタバタ"),
        (MISAKI, "任天堂の人が言うとかっこいいな笑"),
        (KENTA, "中身は地味なテストばっかりだけどね。そういえば2月のスキー、北海道で決まりでいい？"),
        (MISAKI, "うん！2月14日出発でニセコね"),
        (KENTA, "了解、宿探しとく"),
        (MISAKI, "あと報告！お姉ちゃんの結婚式が4月12日に決まった。健太も招待するって"),
        (KENTA, "マジで！おめでとう！絶対行く"),
        (MISAKI, "招待状はメールで来ると思う。アドレス教えていい？"),
        (KENTA, "いいよ、kenta.n@docomo.ne.jp"),
        (MISAKI, "了解！今日は甲子園グッズ整理してたんだけど、阪神のタオル増えすぎ"),
        (KENTA, "筋金入りの阪神ファンやな"),
    ]),
    ("8:00 pm on 2 February, 2025", [
        (KENTA, "ごめん、悪いお知らせ。仕事のリリースが2月後半にずれて、スキー旅行は中止にさせて…"),
        (MISAKI, "えー！まあ仕方ないか。宿は大丈夫？"),
        (KENTA, "無料で取り消せたから大丈夫"),
        (MISAKI, "じゃあまた来年ね"),
        (KENTA, "絶対リベンジする"),
        (MISAKI, "そういえばお姉ちゃんの式、会場の都合で5月17日に延期になったって"),
        (KENTA, "了解、カレンダー直しとく"),
    ]),
    ("10:30 pm on 20 March, 2025", [
        (MISAKI, "実は会社の福岡支社に行かないかって話が来てて、迷ってる"),
        (KENTA, "福岡いいじゃん！ご飯おいしいし"),
        (MISAKI, "そうなんだけど、大阪離れるのさみしい"),
        (KENTA, "俺も報告ある。任天堂辞めてソニーに転職することにした"),
        (MISAKI, "えっ！なんで？"),
        (KENTA, "プレステのチームから声かかってさ、断れなかった"),
        (MISAKI, "すごい！4月から？"),
        (KENTA, "うん、4月1日から。あとドコモ解約したからメアド変えた。これからは kenta.nakamura@gmail.com にお願い"),
        (MISAKI, "了解、お姉ちゃんにも伝えとく"),
    ]),
    ("9:45 pm on 25 May, 2025", [
        (MISAKI, "福岡の新しい部屋、やっと段ボール全部開けた！窓から博多湾が少し見える"),
        (KENTA, "おー、ついに行ったか！"),
        (MISAKI, "天神まで自転車で10分。最高"),
        (KENTA, "遊びに行くわ。あ、式どうなった？"),
        (MISAKI, "それがね、結局お姉ちゃんの式は6月7日になった。会場がダブルブッキングしてたらしい"),
        (KENTA, "二回目か…大変やな。6月7日は空けとく"),
        (MISAKI, "ありがとう！"),
        (KENTA, "福岡でも野球見てる？"),
        (MISAKI, "最近はホークスの試合ばっかり見てる。ソフトバンクの応援、楽しすぎる"),
        (KENTA, "寝返ったな笑"),
    ]),
])
JA_1_Q = [
    q("美咲は今どこに住んでいますか？", "move", "福岡", ["D4:1"], "大阪", ["D1:2"], also={"福岡": ["Fukuoka"]}),
    q("美咲は福岡に引っ越す前、どこに住んでいましたか？", "move", "福岡", ["D4:1"], "大阪", ["D1:2"], asks_past=True,
      also={"大阪": ["Osaka"]}),
    q("健太は今どの会社で働いていますか？", "job", "ソニー", ["D3:4"], "任天堂", ["D1:3"],
      also={"ソニー": ["Sony"], "任天堂": ["Nintendo"]}),
    q("健太はソニーに入る前、どこで働いていましたか？", "job", "ソニー", ["D3:4"], "任天堂", ["D1:3"], asks_past=True,
      also={"ソニー": ["Sony"], "任天堂": ["Nintendo"]}),
    q("美咲のお姉さんの結婚式はいつですか？", "date moved twice", "6月7日", ["D4:5"], "4月12日", ["D1:8"],
      intermediate="5月17日", intermediate_evidence=["D2:6"]),
    q("美咲のお姉さんの結婚式は、最初は何日の予定でしたか？", "date moved twice", "6月7日", ["D4:5"],
      "4月12日", ["D1:8"],
      intermediate="5月17日", intermediate_evidence=["D2:6"], asks_past=True),
    q("健太と美咲の北海道スキー旅行はいつ出発しますか？", "cancelled", "cancelled", ["D2:1"], "2月14日", ["D1:6"]),
    q("健太のメールアドレスは何ですか？", "contact", "kenta.nakamura@gmail.com", ["D3:8"],
      "kenta.n@docomo.ne.jp", ["D1:11"]),
    q("健太が前に使っていたメールアドレスは何ですか？", "contact", "kenta.nakamura@gmail.com", ["D3:8"],
      "kenta.n@docomo.ne.jp", ["D1:11"], asks_past=True),
    q("美咲は今どの野球チームを応援していますか？", "preference", "ソフトバンク", ["D4:9"], "阪神", ["D1:12"],
      also={"ソフトバンク": ["ホークス", "Hawks", "SoftBank"], "阪神": ["タイガース", "Hanshin", "Tigers"]}),
]
JA_1_NONE = [
    {"question": "美咲の弟の名前は何ですか？", "absent": "弟"},
    {"question": "健太が飼っている猫の名前は何ですか？", "absent": "猫"},
]

SHOTA, YUKO = "翔太", "優子"
JA_2 = conversation(SHOTA, YUKO, [
    ("7:30 pm on 6 October, 2025", [
        (YUKO, "翔太くん久しぶり！横浜の生活はどう？"),
        (SHOTA, "久しぶり！横浜は相変わらず。みなとみらいの近くに住んでるから、休日は海沿いを散歩してる"),
        (YUKO, "優雅〜。あかりちゃんとは順調？"),
        (SHOTA, "うん、あかりとは来月で付き合って三年"),
        (YUKO, "もう三年！早いね"),
        (SHOTA, "優子は？仕事忙しい？"),
        (YUKO, "病院の夜勤がきつい〜。そうだ、来年1月の高校の同窓会、幹事やることになったの。"
               "1月11日の土曜、場所は駅前の居酒屋"),
        (SHOTA, "行く行く！"),
        (YUKO, "何かあったらこの番号に電話してね、090-2468-1357"),
        (SHOTA, "登録した！"),
    ]),
    ("11:10 pm on 30 November, 2025", [
        (SHOTA, "聞いてよ…あかりと別れた"),
        (YUKO, "え、うそ…大丈夫？"),
        (SHOTA, "向こうが大阪に転勤になって、遠距離は無理ってなって"),
        (YUKO, "そっか…つらいね"),
        (SHOTA, "まあ、仕方ない。俺も会社から仙台の話が来てて、正直ちょっと受けようか迷ってる"),
        (YUKO, "仙台いいじゃん、牛タン食べ放題だよ"),
        (SHOTA, "それな"),
    ]),
    ("8:20 pm on 20 December, 2025", [
        (YUKO, "同窓会の件、ごめん！お店が改装で使えなくなって、参加者も集まらないから今回は中止にします"),
        (SHOTA, "残念！じゃあ春にでも"),
        (YUKO, "うん、落ち着いたらまた企画する"),
        (SHOTA, "俺、仙台に引っ越すことになった。年明けから"),
        (YUKO, "決めたんだ！応援してる"),
    ]),
    ("6:40 pm on 22 February, 2026", [
        (SHOTA, "仙台、雪すごいよ。広瀬川沿いのマンションから見える景色が真っ白"),
        (YUKO, "寒そう！慣れた？"),
        (SHOTA, "だいぶ。あとさ、ほのかって子と付き合うことになった。会社の同期"),
        (YUKO, "え！おめでとう！"),
        (SHOTA, "優子に最初に言いたかった笑"),
        (YUKO, "嬉しい〜。あ、スマホ新しくしたから、これからはこっちにかけて：080-5791-3468"),
        (SHOTA, "了解、登録し直す"),
    ]),
])
JA_2_Q = [
    q("翔太は今どこに住んでいますか？", "move", "仙台", ["D3:4", "D4:1"], "横浜", ["D1:2"], also={"仙台": ["Sendai"]}),
    q("翔太は仙台に引っ越す前、どこに住んでいましたか？", "move", "仙台", ["D3:4", "D4:1"], "横浜", ["D1:2"],
      asks_past=True, also={"横浜": ["Yokohama"]}),
    q("翔太の今の彼女は誰ですか？", "relationship", "ほのか", ["D4:3"], "あかり", ["D1:4"]),
    q("翔太がほのかと付き合う前の彼女は誰ですか？", "relationship", "ほのか", ["D4:3"], "あかり", ["D1:4"],
      asks_past=True),
    q("優子の電話番号は何ですか？", "contact", "080-5791-3468", ["D4:6"], "090-2468-1357", ["D1:9"]),
    q("優子の前の電話番号は何ですか？", "contact", "080-5791-3468", ["D4:6"], "090-2468-1357", ["D1:9"],
      asks_past=True),
    q("高校の同窓会はいつですか？", "cancelled", "cancelled", ["D3:1"], "1月11日", ["D1:7"]),
]
JA_2_NONE = [{"question": "優子が習っているピアノの先生の名前は何ですか？", "absent": "ピアノ"}]

# -- German ------------------------------------------------------------------

LENA, JONAS = "Lena", "Jonas"
DE_1 = conversation(LENA, JONAS, [
    ("6:45 pm on 19 January, 2025", [
        (JONAS, "Na, wie läuft's in Köln? Immer noch Karnevalsvorbereitung?"),
        (LENA, "Haha, ganz Köln ist im Ausnahmezustand. Meine Wohnung in Ehrenfeld ist zum Glück ruhig"),
        (JONAS, "Bei mir nur Arbeit. Siemens hat uns ein Projekt in Erlangen aufgedrückt"),
        (LENA, "Du Armer. Bist du immer noch im Team für die Zugsteuerung?"),
        (JONAS, "Jep, Softwaretests für die Zugsteuerung. Spannend ist anders"),
        (LENA, "Wollen wir im Sommer an den Gardasee? Ich hab ab Anfang August Urlaub"),
        (JONAS, "Ja, unbedingt! Abfahrt am 2. August, ich fahr"),
        (LENA, "Deal! Samstag war ich übrigens wieder im Stadion, der 1. FC Köln hat endlich mal gewonnen"),
        (JONAS, "Du und dein Geißbock 😄"),
        (LENA, "Einmal Geißbock, immer Geißbock! Ruf mich an, wenn du Zeit hast: 0176 2345 6789"),
        (JONAS, "Mach ich"),
    ]),
    ("8:10 pm on 2 March, 2025", [
        (LENA, "Ich hab Neuigkeiten: Ich hab die Stelle in Hamburg bekommen!"),
        (JONAS, "Waaas! Glückwunsch!! Ab wann?"),
        (LENA, "Ab April. Ich such gerade eine Wohnung"),
        (JONAS, "Hamburg ist super. Wirst du Köln vermissen?"),
        (LENA, "Auf jeden Fall. Aber die Einweihungsparty mach ich groß, am 3. Mai, "
               "egal wie viele Kisten noch rumstehen"),
        (JONAS, "Ich bin dabei"),
        (JONAS, "Bei mir auch was: Ich hab bei Siemens gekündigt. Ab Mai bin ich bei Klimawerk, "
                "einem Start-up für Wärmepumpen in Nürnberg"),
        (LENA, "Mutig! Das passt viel besser zu dir"),
    ]),
    ("9:20 pm on 6 April, 2025", [
        (LENA, "Die Party muss ich verschieben, die Wohnung ist erst Mitte Mai frei. Neuer Termin: 17. Mai"),
        (JONAS, "Kein Problem, steht im Kalender"),
        (LENA, "Schreib mir übrigens lieber auf 0151 9876 5432, das alte Handy ist mir in den Rhein gefallen"),
        (JONAS, "In den Rhein?! Wie das denn?"),
        (LENA, "Frag nicht. Abschiedsabend am Rheinufer, zu viel Kölsch"),
        (JONAS, "😂 gespeichert"),
    ]),
    ("7:55 pm on 1 June, 2025", [
        (LENA, "Die Wohnung in Hamburg ist endlich eingerichtet, vom Balkon in Altona sehe ich die Elbe"),
        (JONAS, "Traumhaft! Und, wie war die Party?"),
        (LENA, "Noch nicht, die Handwerker waren zu spät dran. Sie steigt am 28. Juni, diesmal wirklich!"),
        (JONAS, "28. Juni, notiert. Ich bring Lebkuchen mit"),
        (LENA, "Im Juni? 😂 Und, wie ist das Start-up-Leben?"),
        (JONAS, "Chaotisch, aber ich liebe es. Bei Klimawerk darf ich endlich selbst Sachen bauen"),
        (LENA, "Übrigens hab ich mir eine Dauerkarte für St. Pauli geholt, das Millerntor ist der Wahnsinn"),
        (JONAS, "Verräterin! 😄"),
    ]),
    ("10:05 pm on 15 July, 2025", [
        (JONAS, "Wegen Gardasee... ich muss leider absagen, bei Klimawerk ist im August Messe und ich komm nicht weg"),
        (LENA, "Schade! Dann eben nächstes Jahr"),
        (JONAS, "Versprochen. Die Party war übrigens grandios"),
        (LENA, "Danke, dass du extra aus Nürnberg gekommen bist!"),
    ]),
])
DE_1_Q = [
    q("In welcher Stadt wohnt Lena?", "move", "Hamburg", ["D4:1"], "Köln", ["D1:2"]),
    q("Wo hat Lena gewohnt, bevor sie nach Hamburg gezogen ist?", "move", "Hamburg", ["D4:1"], "Köln", ["D1:2"],
      asks_past=True, also={"Köln": ["Cologne", "Ehrenfeld"]}),
    q("Bei welcher Firma arbeitet Jonas?", "job", "Klimawerk", ["D2:7"], "Siemens", ["D1:3"]),
    q("Wo hat Jonas vor Klimawerk gearbeitet?", "job", "Klimawerk", ["D2:7"], "Siemens", ["D1:3"], asks_past=True),
    q("Wann war Lenas Einweihungsparty?", "date moved twice", "28. Juni", ["D4:3"], "3. Mai", ["D2:5"],
      intermediate="17. Mai", intermediate_evidence=["D3:1"]),
    q("Für welchen Tag hatte Lena ihre Einweihungsparty ursprünglich geplant?", "date moved twice", "28. Juni",
      ["D4:3"], "3. Mai", ["D2:5"], intermediate="17. Mai", intermediate_evidence=["D3:1"], asks_past=True),
    q("Wann fahren Lena und Jonas an den Gardasee?", "cancelled", "cancelled", ["D5:1"], "2. August", ["D1:7"]),
    q("Wie lautet Lenas Handynummer?", "contact", "0151 9876 5432", ["D3:3"], "0176 2345 6789", ["D1:10"]),
    q("Welche Handynummer hatte Lena, bevor ihr Handy in den Rhein fiel?", "contact", "0151 9876 5432", ["D3:3"],
      "0176 2345 6789", ["D1:10"], asks_past=True),
    q("Welchen Fußballverein unterstützt Lena?", "preference", "St. Pauli", ["D4:7"], "FC Köln", ["D1:8"],
      also={"FC Köln": ["Geißbock"]}),
]
DE_1_NONE = [
    {"question": "Wie heißt Lenas Bruder?", "absent": "Bruder"},
    {"question": "Welches Auto fährt Jonas?", "absent": "Auto"},
]

ANNA, MEHMET = "Anna", "Mehmet"
DE_2 = conversation(ANNA, MEHMET, [
    ("7:05 pm on 14 September, 2025", [
        (MEHMET, "Hey Anna! Wie war der Urlaub?"),
        (ANNA, "Herrlich! Tobias und ich waren zwei Wochen in Portugal, nur Strand und Pastéis"),
        (MEHMET, "Neid. Ich sitz in Neukölln und schwitze, meine Dachwohnung ist ein Backofen"),
        (ANNA, "Oh nein. Und bei Zalando hat mich nach dem Urlaub direkt eine Mail-Lawine erschlagen"),
        (MEHMET, "Klassiker. Schick mir mal die Fotos? An mehmet.yilmaz@web.de, WhatsApp komprimiert alles so"),
        (ANNA, "Mach ich heute Abend"),
    ]),
    ("9:30 pm on 2 November, 2025", [
        (ANNA, "Tobias und ich haben uns getrennt."),
        (MEHMET, "Oh Anna, das tut mir leid. Was ist passiert?"),
        (ANNA, "Wir wollten einfach verschiedene Dinge. Er will aufs Land, ich nicht"),
        (MEHMET, "Wenn du reden willst, ich bin da"),
        (MEHMET, "Kleine Info noch: Ich hab meine Mailadresse gewechselt, die bei web.de lese ich nicht mehr. "
                 "Neu: m.yilmaz@posteo.de"),
        (ANNA, "Notiert!"),
    ]),
    ("6:15 pm on 10 January, 2026", [
        (ANNA, "Frohes neues Jahr! Heute war mein erster Tag bei der Deutschen Bahn, in der Fahrplanabteilung"),
        (MEHMET, "Frohes neues! Warte, kein Zalando mehr??"),
        (ANNA, "Nee, ich wollte was Sinnvolleres machen. Züge statt Schuhe 😄"),
        (MEHMET, "Respekt. Ich hab auch News: Wir sind nach Leipzig umgezogen, Nina hat dort die Professur bekommen"),
        (ANNA, "Leipzig! Wie schön. Welches Viertel?"),
        (MEHMET, "Plagwitz, direkt am Kanal"),
    ]),
    ("8:40 pm on 21 February, 2026", [
        (ANNA, "Ich muss dir was erzählen… Sebastian und ich sind seit Silvester zusammen 🥰"),
        (MEHMET, "Was?! Erzähl alles!"),
        (ANNA, "Kennengelernt beim Bouldern, er ist Tierarzt in Pankow"),
        (MEHMET, "Klingt toll!"),
        (ANNA, "Kommt ihr mal nach Berlin? Dann stell ich ihn euch vor"),
        (MEHMET, "Im März bestimmt. Schreib mir die Details an die Posteo-Adresse, m.yilmaz@posteo.de"),
    ]),
])
DE_2_Q = [
    q("Mit wem ist Anna zusammen?", "relationship", "Sebastian", ["D4:1"], "Tobias", ["D1:2"]),
    q("Wer war Annas Freund vor Sebastian?", "relationship", "Sebastian", ["D4:1"], "Tobias", ["D1:2"], asks_past=True),
    q("Wie lautet Mehmets E-Mail-Adresse?", "contact", "m.yilmaz@posteo.de", ["D2:5", "D4:6"],
      "mehmet.yilmaz@web.de", ["D1:5"]),
    q("Welche E-Mail-Adresse hatte Mehmet früher?", "contact", "m.yilmaz@posteo.de", ["D2:5", "D4:6"],
      "mehmet.yilmaz@web.de", ["D1:5"], asks_past=True),
    q("Wo arbeitet Anna?", "job", "Bahn", ["D3:1"], "Zalando", ["D1:4"]),
    q("Wo hat Anna gearbeitet, bevor sie zur Bahn ging?", "job", "Bahn", ["D3:1"], "Zalando", ["D1:4"], asks_past=True),
    q("In welcher Stadt wohnt Mehmet?", "move", "Leipzig", ["D3:4"], "Neukölln", ["D1:3"],
      also={"Neukölln": ["Berlin"]}),
]
DE_2_NONE = [{"question": "Wie heißt Mehmets Hund?", "absent": "Hund"}]

KATRIN, FELIX = "Katrin", "Felix"
DE_3 = conversation(KATRIN, FELIX, [
    ("7:30 pm on 10 March, 2025", [
        (FELIX, "Hey Katrin, wie geht es dir?"),
        (KATRIN, "Geht so, mir tut ein Zahn weh. Ich habe nächsten Donnerstag einen Termin beim Zahnarzt"),
        (FELIX, "Oh je, gute Besserung!"),
        (KATRIN, "Danke. Und bei euch, gibt es was Neues?"),
        (FELIX, "Ja! Wir haben die Wohnung in Köln bekommen und ziehen nächsten Monat um"),
        (KATRIN, "Wie schön, endlich mehr Platz für euch"),
    ]),
    ("8:10 pm on 17 March, 2025", [
        (KATRIN, "Die Praxis hat angerufen, der Zahnarzt ist krank. Der Termin ist jetzt erst in zehn Tagen"),
        (FELIX, "Na toll, und so lange mit Zahnschmerzen?"),
        (KATRIN, "Ich nehme Ibuprofen. Immerhin fahren Miriam und ich kommenden Samstag nach Hamburg ins Musical"),
        (FELIX, "Viel Spaß! Welches Musical?"),
        (KATRIN, "Der König der Löwen, das wollte sie schon immer sehen"),
    ]),
    ("6:45 pm on 20 March, 2025", [
        (KATRIN, "Hamburg fällt leider aus, Miriam liegt mit Grippe im Bett. Wir haben die Karten storniert"),
        (FELIX, "Schade! Gute Besserung an Miriam"),
    ]),
    ("9:05 pm on 24 March, 2025", [
        (KATRIN, "Und der Zahnarzt hat den Termin wieder verschoben! Jetzt ist er übermorgen um neun"),
        (FELIX, "Hauptsache, es wird endlich gemacht"),
        (KATRIN, "Ja, ich zähle die Stunden"),
    ]),
    ("7:20 pm on 7 April, 2025", [
        (FELIX, "Unser Umzug verschiebt sich, der Vermieter renoviert noch das Bad. Wir ziehen jetzt erst "
                "nächsten Monat nach Köln"),
        (KATRIN, "Ärgerlich, aber dann ist wenigstens alles fertig"),
        (FELIX, "Genau. Und dein Zahn?"),
        (KATRIN, "Ist gemacht und tut nicht mehr weh"),
    ]),
])
DE_3_Q = [
    q("Wann hat Katrin ihren Zahnarzttermin?", "date moved twice", "26. März", ["D4:1"], "20. März", ["D1:2"],
      intermediate="27. März", intermediate_evidence=["D2:1"]),
    q("Wann war Katrins Zahnarzttermin ursprünglich?", "date moved twice", "26. März", ["D4:1"], "20. März",
      ["D1:2"], intermediate="27. März", intermediate_evidence=["D2:1"], asks_past=True),
    q("Wann fahren Katrin und Miriam nach Hamburg?", "cancelled", "cancelled", ["D3:1"], "22. März", ["D2:3"]),
    q("In welchem Monat zieht Felix nach Köln?", "date moved twice", "Mai", ["D5:1"], "April", ["D1:5"],
      also={"Mai": ["May"]}),
    q("In welchem Monat wollte Felix ursprünglich nach Köln ziehen?", "date moved twice", "Mai", ["D5:1"], "April",
      ["D1:5"], also={"Mai": ["May"]}, asks_past=True),
]



# -- Relative dates (Chinese and Japanese) -----------------------------------
# Dates said the way people say them in a chat, counted from the day of the
# message ("下周三", "来週の金曜日", "下个月10号"): the date a plan moved to is
# never written out. Sessions fall on the weekdays their relative dates need
# (10 March 2025 is a Monday; 8 June 2025 a Sunday).

WEI, YANG = "张伟", "刘洋"
ZH_3 = conversation(WEI, YANG, [
    ("9:10 pm on 10 March, 2025", [
        (YANG, "伟哥，最近怎么样？"),
        (WEI, "还行，就是牙疼了好几天。约了牙医，下周三上午去看"),
        (YANG, "赶紧看，别拖。对了，我跟小美下个月12号去厦门玩，你要不要一起？"),
        (WEI, "我去不了，公司的项目正赶着上线"),
        (YANG, "好吧，那给你带馅饼"),
        (WEI, "我三天前开始跑步了，每天五公里，看能坚持多久"),
        (YANG, "厉害！"),
    ]),
    ("8:30 pm on 17 March, 2025", [
        (WEI, "牙医诊所刚打电话来，说医生出差，预约改到这周五下午了"),
        (YANG, "那也好，早点看完早点舒服"),
        (WEI, "是啊。你们厦门的机票买了吗？"),
        (YANG, "买了，不过时间改了，下个月19号出发，小美那周要加班"),
        (WEI, "那正好赶上好天气"),
        (YANG, "希望别下雨"),
    ]),
    ("10:05 pm on 24 March, 2025", [
        (YANG, "牙看了吗？"),
        (WEI, "周五又没看成，诊所停电了😂 重新约到了下周二"),
        (YANG, "这也太倒霉了吧"),
        (WEI, "习惯了。跑步倒是坚持下来了，昨天跑了十公里"),
        (YANG, "可以啊！"),
    ]),
    ("7:45 pm on 14 April, 2025", [
        (YANG, "跟你说个事，厦门不去了，小美她奶奶住院了"),
        (WEI, "啊，奶奶没事吧？"),
        (YANG, "做了个小手术，问题不大，就是得有人陪着"),
        (WEI, "那就好。我的牙终于看完了，补了两颗"),
        (YANG, "哈哈，恭喜解放"),
    ]),
    ("9:00 pm on 5 May, 2025", [
        (WEI, "我找到房子了！下个月10号搬家，搬到浦东，离公司近多了"),
        (YANG, "太好了，要不要我帮忙搬？"),
        (WEI, "好啊，搬完请你吃火锅"),
    ]),
    ("8:15 pm on 26 May, 2025", [
        (WEI, "房东说房子提前空出来了，搬家提前到这周六"),
        (YANG, "这么快！那我周六早上过去帮你"),
        (WEI, "太感谢了，火锅照请"),
    ]),
])
ZH_3_Q = [
    q("张伟的牙医预约是哪天？", "date moved twice", "4月1日", ["D3:2"], "3月19日", ["D1:2"],
      intermediate="3月21日", intermediate_evidence=["D2:1"]),
    q("张伟的牙医预约最初约的是哪天？", "date moved twice", "4月1日", ["D3:2"], "3月19日", ["D1:2"],
      intermediate="3月21日", intermediate_evidence=["D2:1"], asks_past=True),
    q("刘洋和小美什么时候去厦门？", "cancelled", "cancelled", ["D4:1"], "4月12日", ["D1:3"],
      intermediate="4月19日", intermediate_evidence=["D2:4"]),
    q("刘洋和小美原来打算哪天去厦门？", "date moved twice", "4月19日", ["D2:4"], "4月12日", ["D1:3"],
      asks_past=True),
    q("张伟哪天搬家？", "date moved twice", "5月31日", ["D6:1"], "6月10日", ["D5:1"]),
    q("张伟搬家原来定在哪天？", "date moved twice", "5月31日", ["D6:1"], "6月10日", ["D5:1"], asks_past=True),
]

YAMAMOTO, KIMURA = "山本", "木村"
JA_3 = conversation(YAMAMOTO, KIMURA, [
    ("8:20 pm on 2 June, 2025", [
        (KIMURA, "山本さん、お疲れ！最近どう？"),
        (YAMAMOTO, "転職活動中でバタバタしてる。明後日、第一志望の会社の面接なんだ"),
        (KIMURA, "おお、頑張って！"),
        (YAMAMOTO, "ありがとう。木村さんは？"),
        (KIMURA, "来月15日に引っ越すことになったよ。やっと駅近の部屋が見つかった"),
        (YAMAMOTO, "いいね！あと夏休みは来月20日から沖縄に行く予定なんだ、久しぶりの旅行"),
        (KIMURA, "うらやましい！お土産よろしく"),
    ]),
    ("9:40 pm on 4 June, 2025", [
        (YAMAMOTO, "面接、先方の都合で急に延期になった。来週の月曜日だって"),
        (KIMURA, "えー、緊張が続くね"),
        (YAMAMOTO, "準備の時間が増えたと思うことにする"),
    ]),
    ("7:55 pm on 8 June, 2025", [
        (YAMAMOTO, "面接、また延期になった…。今度は再来週の水曜日"),
        (KIMURA, "二回目！？大丈夫なの、その会社"),
        (YAMAMOTO, "担当者が海外出張らしい。まあ待つしかない"),
        (KIMURA, "気長にいこう"),
    ]),
    ("10:10 pm on 30 June, 2025", [
        (KIMURA, "引っ越し、一週間早まって来週の火曜日になった。前の住人が早く出たんだって"),
        (YAMAMOTO, "急だね！手伝おうか？"),
        (KIMURA, "助かる！段ボールがまだ半分しか詰められてない"),
    ]),
    ("9:25 pm on 7 July, 2025", [
        (YAMAMOTO, "沖縄旅行、台風が直撃しそうで中止にしちゃった"),
        (KIMURA, "うわ、残念…。キャンセル料は大丈夫だった？"),
        (YAMAMOTO, "台風だから無料だった。秋にまた計画するよ"),
        (KIMURA, "秋の沖縄もいいらしいよ"),
    ]),
])
JA_3_Q = [
    q("山本さんの面接はいつですか？", "date moved twice", "6月18日", ["D3:1"], "6月4日", ["D1:2"],
      intermediate="6月9日", intermediate_evidence=["D2:1"]),
    q("山本さんの面接は最初いつの予定でしたか？", "date moved twice", "6月18日", ["D3:1"], "6月4日", ["D1:2"],
      intermediate="6月9日", intermediate_evidence=["D2:1"], asks_past=True),
    q("木村さんはいつ引っ越しますか？", "date moved twice", "7月8日", ["D4:1"], "7月15日", ["D1:5"]),
    q("木村さんの引っ越しは最初いつの予定でしたか？", "date moved twice", "7月8日", ["D4:1"], "7月15日", ["D1:5"],
      asks_past=True),
    q("山本さんはいつ沖縄に行きますか？", "cancelled", "cancelled", ["D5:1"], "7月20日", ["D1:6"]),
]


def build() -> dict[str, list[dict]]:
    return {
        "zh": [sample("zh", "cf-zh-1", ZH_1, ZH_1_Q, ZH_1_NONE), sample("zh", "cf-zh-2", ZH_2, ZH_2_Q, ZH_2_NONE),
               sample("zh", "cf-zh-3", ZH_3, ZH_3_Q, [])],
        "ja": [sample("ja", "cf-ja-1", JA_1, JA_1_Q, JA_1_NONE), sample("ja", "cf-ja-2", JA_2, JA_2_Q, JA_2_NONE),
               sample("ja", "cf-ja-3", JA_3, JA_3_Q, [])],
        "de": [sample("de", "cf-de-1", DE_1, DE_1_Q, DE_1_NONE), sample("de", "cf-de-2", DE_2, DE_2_Q, DE_2_NONE),
               sample("de", "cf-de-3", DE_3, DE_3_Q, [])],
    }


if __name__ == "__main__":
    for lang, samples in build().items():
        path = DATA / f"changed-facts-{lang}.json"
        path.write_text(json.dumps(samples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}: {sum(len(s['qa']) for s in samples)} questions, "
              f"{sum(n['asks_past'] for s in samples for n in s['changed_facts_notes'])} about the past, "
              f"{sum(len(s['unanswerable']) for s in samples)} unanswerable")
