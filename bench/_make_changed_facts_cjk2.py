"""Writes bench/data/changed-facts-{zh2,ja2}.json: a second, unseen Chinese and Japanese changed-facts set.

Like ``bench/_make_changed_facts.py``'s Chinese and Japanese chats (its
``labelled_conversation`` and per-language change words are used here), but
written for rawrag without looking at how the app answers, with no person,
place, employer or pet of the other changed-facts sets, of
``bench/data/cjk-chats.json``, ``bench/data/yes-no.json`` or of LoCoMo's
conv-26. Two chats per language, each over a year or more of 2025-2026, in
LoCoMo's format (``9:12 pm on 18 January, 2025`` session dates):

- zh2-1: 许悦 (南宁, then 长沙) and her university friend 邓凯 (珠海), WeChat;
- zh2-2: 葛薇 and 俞朗, former colleagues at a bank in 大连, WeChat;
- ja2-1: 沙織 (盛岡, then 富山) and her high-school friend 大輝, LINE;
- ja2-2: 和子 (松江) and her son 悠真 (広島), LINE.

Facts change in them (a move, a new job, a date moved twice, a cancelled trip,
a break-up and a new partner, a new phone number or LINE ID, a sport, a
morning drink, a renamed pet), some said with a change word (改, 推迟, 取消,
换; 延期, 引っ越し, キャンセル, 変わった), some only as the new state ("在魅族
上班第三周", "6月からメルカリで働くことになった"), some in answer to a question
("你还在南宁吗" then "早走啦"), some naming the old value in
the same line ("盛岡から富山に引っ越して3週間", "乒乓球拍都落灰了"); the old
state comes back in passing later ("在南宁那几年从来没见过雪"). Dates are
written as people write them: 3月29号, 下周六, 来週の金曜日 (each followed by
the day it means in a reply, which the notes cite too), 农历十月初十 with its
阳历 day, 腊月 and 春节, 令和8年.

Notes as in ``bench/_make_changed_facts.py``: one per question, ``asks_past``
true where the right answer is the ``stale`` value, ``cue`` whether a latest
statement holds one of the language's change words (the patterns
tests/test_changed_facts_set.py uses), ``language`` ``zh`` or ``ja``. A turn is
written with a label where a note cites it; the dia ids are worked out from
the labels. A date said relatively ("下周六") is noted as the day it means,
counted from its session's date.

    python bench/_make_changed_facts_cjk2.py   # rewrites the two files
"""

from __future__ import annotations

from _make_changed_facts import labelled_conversation
from _make_changed_facts_fresh import q, sample, write

# -- zh2-1: 许悦 (南宁, then 长沙) and 邓凯 (珠海), university friends --------

XY, DK = "许悦", "邓凯"
ZH_1 = labelled_conversation(XY, DK, [
    ("9:12 pm on 18 January, 2025", [
        (DK, "在吗在吗"),
        (XY, "在，刚到家[捂脸] 南宁这两天回南天，衣服晾了三天还是潮的", "nanning"),
        (DK, "哈哈珠海也一样，墙都在出汗"),
        (XY, "你们年会开完没"),
        (DK, "昨天开的，格力年会抽奖我又是阳光普照奖，一箱洗衣液🙃", "gree"),
        (XY, "洗衣液也是爱"),
        (DK, "对了你雅思报了没"),
        (XY, "报了，3月15日，笔试口试同一天，想想就腿软", "ielts1"),
        (DK, "冲冲冲 考完请你吃饭"),
        (XY, "说好了啊"),
        (XY, "糯米最近天天半夜跑酷，今天早上我脸上多了一道爪印", "nuomi"),
        (DK, "糯米是那只三花吧"),
        (XY, "对，就它，白天装睡晚上蹦迪[裂开]"),
        (DK, "过年回老家吗"),
        (XY, "回，腊月二十八的高铁票，抢了三天才抢到"),
        (DK, "牛"),
    ]),
    ("8:40 pm on 2 March, 2025", [
        (XY, "救命，考点临时调整，我的雅思改到3月29号了", "ielts2"),
        (DK, "多两周复习，赚了"),
        (XY, "你心态是真的好"),
        (DK, "最近每周打三次乒乓球，心态都打出来了，还瘦了四斤", "pingpong"),
        (XY, "自律的男人"),
        (XY, "你手机号多少来着？给你寄点老友粉，快递要填电话"),
        (DK, "13925714406，谢谢老板！", "phone1"),
        (XY, "情人节跟小蔓怎么过的？"),
        (DK, "带小蔓去情侣路散步，然后吃了顿海鲜，她说是今年最开心的一天", "xiaoman"),
        (XY, "酸了酸了"),
    ]),
    ("10:05 pm on 2 April, 2025", [
        (XY, "雅思又推迟了！！！考试中心说系统升级，延到下周六", "ielts3"),
        (DK, "这也太折腾了，下周六是4月12日吧？我记一下"),
        (XY, "对，4月12日，再改我就不考了", "ielts3b"),
        (XY, "三次了，单词我都背了三遍了[流泪]"),
        (DK, "就当多复习一遍"),
        (DK, "跟你说个事，我跟小蔓分开了"),
        (XY, "啊？？怎么了"),
        (DK, "她要回老家考公务员，异地也没意思，和平分开"),
        (XY, "抱抱"),
        (DK, "没事，打球去了🏓"),
    ]),
    ("9:30 pm on 27 April, 2025", [
        (XY, "考完了！口语考官是个英国大叔，一直在笑"),
        (DK, "那稳了"),
        (DK, "暑假要不要去新疆自驾？我大学同学在乌鲁木齐，能借到车"),
        (XY, "去！！什么时候"),
        (DK, "7月18日出发，玩十天", "xj1"),
        (XY, "我先去跟领导磨请假"),
        (DK, "格力最近在传要调岗，我也在看看外面的机会"),
        (XY, "支持，你在格力都五年了"),
    ]),
    ("11:10 pm on 8 June, 2025", [
        (XY, "雅思出分了，7分！！"),
        (DK, "大佬！请吃饭请吃饭"),
        (XY, "还有个事，公司在长沙开新工作室，我可能要过去，还在谈"),
        (DK, "长沙好啊，吃的多"),
        (DK, "对了我手机号换了，以后打18820396617，原来那个13925714406月底就停了", "phone2"),
        (XY, "好，备注改了"),
    ]),
    ("8:15 pm on 10 July, 2025", [
        (XY, "凯子，对不起……调令下来了，七月底去长沙报到，新疆那十天假批不下来"),
        (DK, "啊这"),
        (DK, "没事，你不去我一个人也没意思，那新疆就取消吧，车我跟同学说一声", "xj_off"),
        (XY, "真的对不起，明年一定补上[抱拳]"),
        (DK, "说好了啊"),
    ]),
    ("9:45 pm on 16 August, 2025", [
        (DK, "你还在南宁吗？下周我去南宁出差，想约你嗦粉"),
        (XY, "早走啦，上个月底就到长沙了，住梅溪湖这边，楼下就是茶颜悦色", "changsha"),
        (DK, "哇，那粉只能下次了"),
        (XY, "糯米也跟来了，坐了四个多小时高铁，一路骂骂咧咧"),
        (DK, "哈哈哈哈画面感太强"),
        (DK, "我这边也有进展，魅族给我发了面试"),
        (XY, "加油！"),
    ]),
    ("10:20 pm on 4 October, 2025", [
        (DK, "国庆快乐！"),
        (XY, "国庆快乐！你在干嘛"),
        (DK, "在魅族上班第三周，国庆值班，食堂是真的香，胖了三斤", "meizu"),
        (XY, "哈哈恭喜！以后格力的洗衣液没了"),
        (DK, "不稀罕"),
        (XY, "跟你说，糯米改名了，叫大王。来长沙之后天天霸占我的工位，只能叫大王", "dawang"),
        (DK, "大王哈哈哈哈，配得上"),
        (DK, "我最近迷上飞盘了，周末都在江边跑，乒乓球拍都落灰了", "frisbee"),
        (XY, "晒黑了吧"),
        (DK, "黑了两个色号"),
    ]),
    ("9:00 pm on 14 December, 2025", [
        (DK, "报告，我脱单了😎"),
        (XY, "？？？谁"),
        (DK, "飞盘队认识的，叫夏岚，跑得比我还快", "xialan"),
        (XY, "终于！小蔓之后你单了大半年了"),
        (DK, "……谢谢提醒"),
        (XY, "长沙今天下雪了！在南宁那几年从来没见过雪"),
        (DK, "大王什么反应"),
        (XY, "大王趴窗台上看了一下午，一动不动"),
    ]),
    ("8:30 pm on 10 February, 2026", [
        (XY, "春节回老家吗？我腊月二十六到家"),
        (DK, "回，今年带夏岚回去见我爸妈，紧张到失眠"),
        (XY, "加油！大王给你一个爪印"),
        (DK, "[动画表情]"),
    ]),
    ("7:50 pm on 22 March, 2026", [
        (DK, "长沙樱花开了没"),
        (XY, "开了，周末去了趟岳麓山，人比花多"),
        (DK, "哈哈哈"),
        (XY, "你和夏岚怎么样"),
        (DK, "挺好的，下个月一起去打飞盘比赛"),
        (XY, "冲！"),
    ]),
])
ZH_1_Q = [
    q("许悦现在住在哪个城市？", "长沙", "move", "长沙", ["changsha"], "南宁", ["nanning"],
      also={"长沙": ["Changsha"], "南宁": ["Nanning"]}),
    q("邓凯现在在哪家公司上班？", "魅族", "job", "魅族", ["meizu"], "格力", ["gree"],
      also={"魅族": ["Meizu"], "格力": ["Gree"]}),
    q("许悦的雅思考试是哪天？", "4月12日", "date moved twice", "4月12日", ["ielts3", "ielts3b"], "3月15日",
      ["ielts1"], intermediate="3月29日", intermediate_at=["ielts2"]),
    q("许悦和邓凯哪天出发去新疆自驾？", "取消了", "cancelled", "cancelled", ["xj_off"], "7月18日", ["xj1"]),
    q("邓凯的手机号是多少？", "18820396617", "contact", "18820396617", ["phone2"], "13925714406", ["phone1"]),
    q("邓凯周末一般玩什么运动？", "飞盘", "preference", "飞盘", ["frisbee"], "乒乓球", ["pingpong"]),
    q("邓凯的女朋友叫什么名字？", "夏岚", "relationship", "夏岚", ["xialan"], "小蔓", ["xiaoman"]),
    q("许悦的猫叫什么名字？", "大王", "pet", "大王", ["dawang"], "糯米", ["nuomi"]),
    q("许悦搬去长沙之前住在哪个城市？", "南宁", "move", "长沙", ["changsha"], "南宁", ["nanning"], past=True,
      also={"长沙": ["Changsha"], "南宁": ["Nanning"]}),
    q("许悦的雅思考试最早约在哪天？", "3月15日", "date moved twice", "4月12日", ["ielts3", "ielts3b"], "3月15日",
      ["ielts1"], intermediate="3月29日", intermediate_at=["ielts2"], past=True),
    q("邓凯去魅族之前在哪家公司工作？", "格力", "job", "魅族", ["meizu"], "格力", ["gree"], past=True,
      also={"魅族": ["Meizu"], "格力": ["Gree"]}),
]
ZH_1_NONE = [{"question": "许悦的哥哥叫什么名字？", "absent": "哥哥"}]


# -- zh2-2: 葛薇 and 俞朗, former colleagues at a bank in 大连 ----------------

GW, YL = "葛薇", "俞朗"
ZH_2 = labelled_conversation(GW, YL, [
    ("12:40 pm on 10 March, 2025", [
        (YL, "薇姐，吃了没[呲牙]"),
        (GW, "在食堂排队。你们支行今天又开晨会了吧"),
        (YL, "开了一个小时，行长讲存款任务，我人都麻了"),
        (GW, "我在招商银行干了八年，晨会就没短过四十分钟", "cmb"),
        (YL, "八年，元老级别"),
        (GW, "跟你说个好消息，我和阿泽订婚了，婚礼定在国庆，10月3日", "wed1"),
        (YL, "恭喜恭喜！！！份子钱已经在准备了"),
        (GW, "人来就行哈哈"),
        (YL, "请柬发我邮箱吧，yulang0812@163.com"),
        (GW, "收到"),
    ]),
    ("8:05 pm on 27 May, 2025", [
        (GW, "婚礼日子可能要挪，阿泽奶奶翻了黄历，说国庆那几天不宜嫁娶"),
        (YL, "老人家讲究这个"),
        (GW, "改到农历十月初十了，阳历是11月29日，周六", "wed2"),
        (YL, "好，我日历上记一下"),
        (GW, "你们还在搞信用卡分期的营销吗"),
        (YL, "天天搞，我朋友圈快成广告位了[捂脸]"),
        (GW, "偷偷跟你说，我在看机会"),
        (YL, "懂，保密🤐"),
    ]),
    ("9:30 pm on 2 August, 2025", [
        (YL, "薇姐你真走了啊？今天路过你工位，桌子都空了"),
        (GW, "走了，下周一去顺丰报到，做数据分析"),
        (YL, "从银行到物流，跨度有点大"),
        (GW, "都是跟数字打交道嘛"),
        (YL, "对了我163邮箱被盗了，以后发这个：yulang.dl@qq.com"),
        (GW, "好的，请柬到时候发新邮箱"),
    ]),
    ("10:10 pm on 19 September, 2025", [
        (GW, "顺丰这边节奏好快，每天盯件量报表，但没人开晨会，爽", "sf"),
        (YL, "羡慕，我们还在开"),
        (GW, "婚礼又要改😭 酒店11月要装修，只能往后推，最后定在12月27日", "wed3"),
        (YL, "一年改两次，阿泽顶得住吗"),
        (GW, "他说只要新娘不换，哪天都行"),
        (YL, "哈哈哈哈这觉悟"),
    ]),
    ("11:00 pm on 27 December, 2025", [
        (YL, "今天婚礼太好哭了，阿泽念誓词那段我没绷住"),
        (GW, "谢谢你来！还帮阿泽挡了那么多酒"),
        (YL, "应该的，新婚快乐🎉"),
    ]),
    ("9:20 pm on 15 February, 2026", [
        (YL, "薇姐新年快乐！明天就除夕了"),
        (GW, "新年快乐！第一次在婆家过春节，有点紧张"),
        (YL, "我今年值班，初三才回老家"),
        (GW, "想起去年这时候还在招行跟你一起点春节要换的新钞"),
        (YL, "哈哈那是真累"),
    ]),
    ("8:45 pm on 12 April, 2026", [
        (YL, "薇姐，顺丰那边还招人吗？我也想动一动了"),
        (GW, "招，我帮你内推"),
        (YL, "先谢了，简历明天发你"),
        (GW, "发我QQ邮箱就行，微信文件老过期"),
    ]),
])
ZH_2_Q = [
    q("葛薇的婚礼是哪天办的？", "12月27日", "date moved twice", "12月27日", ["wed3"], "10月3日", ["wed1"],
      intermediate="11月29日", intermediate_at=["wed2"]),
    q("葛薇现在在哪家公司上班？", "顺丰", "job", "顺丰", ["sf"], "招商银行", ["cmb"],
      also={"顺丰": ["SF Express"], "招商银行": ["招行", "China Merchants Bank"]}),
    q("葛薇的婚礼最初定在哪天？", "10月3日", "date moved twice", "12月27日", ["wed3"], "10月3日", ["wed1"],
      intermediate="11月29日", intermediate_at=["wed2"], past=True),
    q("葛薇去顺丰之前在哪里工作？", "招商银行", "job", "顺丰", ["sf"], "招商银行", ["cmb"], past=True,
      also={"顺丰": ["SF Express"], "招商银行": ["招行", "China Merchants Bank"]}),
]
ZH_2_NONE = [{"question": "俞朗养的猫叫什么名字？", "absent": "猫"}]


# -- ja2-1: 沙織 (盛岡, then 富山) and 大輝, high-school friends ---------------

SA, DA = "沙織", "大輝"
JA_1 = labelled_conversation(SA, DA, [
    ("10:20 pm on 8 February, 2025", [
        (DA, "おつかれ〜生きてる？"),
        (SA, "生きてる笑 盛岡きのうからずっと雪。バス30分遅れたよ", "morioka"),
        (DA, "こっちは朝6時からニトリの棚卸しで腰が終わった", "nitori"),
        (SA, "店長代理おつかれさま🙏"),
        (DA, "拓真くん元気？"),
        (SA, "元気だよ〜。昨日も拓真と冷麺食べてきた", "takuma"),
        (DA, "盛岡っぽすぎる笑"),
        (SA, "あ、そうだ、親知らず抜くことになった😇 5月9日", "tooth1"),
        (DA, "下の歯？"),
        (SA, "下の横向きのやつ。こわすぎる"),
        (DA, "めっちゃ腫れるらしいよ"),
        (SA, "励ます気ある？笑"),
    ]),
    ("9:05 pm on 16 March, 2025", [
        (SA, "高校の同窓会のグループ作るから、大輝のID教えて"),
        (DA, "daiki-0307 だよ", "line1"),
        (SA, "ありがと、招待した！"),
        (DA, "（スタンプ）"),
        (DA, "最近、毎朝缶コーヒー2本飲まないと動けない", "coffee"),
        (SA, "飲みすぎ！胃やられるよ"),
        (SA, "あと歯医者から電話来て、向こうの都合で抜歯が5月23日になった", "tooth2"),
        (DA, "伸びたね、心の準備期間"),
        (DA, "てか9月の連休、釜山行かない？"),
        (SA, "行きたい！！"),
        (DA, "じゃあ9月13日出発で航空券見とくわ", "busan1"),
        (SA, "🙌🙌"),
    ]),
    ("11:15 pm on 30 April, 2025", [
        (SA, "聞いて…拓真と別れた"),
        (DA, "え、まじか。大丈夫？"),
        (SA, "大丈夫じゃない。5年も付き合ったのに"),
        (DA, "電話する？"),
        (SA, "ううん、今日は寝る。ありがと"),
    ]),
    ("8:40 pm on 21 May, 2025", [
        (SA, "抜歯、また延期になった笑 先生がぎっくり腰らしくて、来週の金曜日だって", "tooth3"),
        (DA, "先生のほうが先に治療いるやん"),
        (DA, "来週の金曜って30日？"),
        (SA, "そう、5月30日。有給また取らなきゃ", "tooth3b"),
        (SA, "そういえば大輝、まだニトリ？"),
        (DA, "ううん、6月からメルカリで働くことになった！カスタマーサポート", "mercari"),
        (SA, "え、すごい！在宅？"),
        (DA, "週3で在宅。土日出勤から解放される〜"),
    ]),
    ("7:30 pm on 1 June, 2025", [
        (SA, "抜歯おわった〜〜 顔パンパン🐹"),
        (DA, "写真送って笑"),
        (SA, "ぜったいいや"),
        (SA, "あとね、会社から辞令出た。7月から富山支社"),
        (DA, "富山！白えび！"),
        (SA, "観光客か笑"),
    ]),
    ("9:50 pm on 3 August, 2025", [
        (DA, "富山どう？"),
        (SA, "盛岡から富山に引っ越して3週間、まだ段ボールに囲まれて寝てる", "toyama"),
        (DA, "片付けろ笑"),
        (SA, "暑すぎて無理。盛岡の夏が恋しい"),
        (DA, "ごめん、釜山なんだけど…新しい会社の研修が9月まで入ってて、休みが取れそうにない。キャンセルでいい？",
         "busan_off"),
        (SA, "えー！でも仕方ないね。航空券キャンセルしとく"),
        (DA, "ほんまごめん。来年リベンジしよ"),
    ]),
    ("10:05 pm on 12 October, 2025", [
        (DA, "LINE乗っ取られかけたからアカウント作り直した。新しいIDは hm.daiki2025 で、追加しといて", "line2"),
        (SA, "こわ！追加したよ"),
        (DA, "古いdaiki-0307から何か来ても無視してね"),
        (SA, "了解"),
        (DA, "最近、朝は白湯しか飲んでない。缶コーヒーは卒業した", "sayu"),
        (SA, "意識高っ！メルカリの人っぽい"),
        (DA, "関係ないやろ笑"),
        (SA, "こっちは会社の陶芸サークル入った。ろくろ難しすぎる"),
    ]),
    ("9:10 pm on 21 December, 2025", [
        (SA, "報告です…陶芸サークルの航平さんと付き合うことになりました🙈", "kohei"),
        (DA, "おめでとう！！拓真くんのことで泣いてた沙織はどこへ"),
        (SA, "言わないで笑"),
        (SA, "クリスマスは航平さんと環水公園のイルミ見に行く"),
        (DA, "富山満喫してるやん"),
    ]),
    ("8:25 pm on 7 March, 2026", [
        (DA, "メルカリ入ってそろそろ1年。早すぎ"),
        (SA, "はやっ"),
        (SA, "富山の雪、盛岡より重い気がする。雪かきで筋肉痛"),
        (DA, "白湯飲んであったまって"),
        (SA, "大輝の白湯推し何なの笑"),
    ]),
])
JA_1_Q = [
    q("沙織はどこに住んでいますか？", "富山", "move", "富山", ["toyama"], "盛岡", ["morioka"],
      also={"富山": ["Toyama"], "盛岡": ["Morioka"]}),
    q("大輝はどこで働いていますか？", "メルカリ", "job", "メルカリ", ["mercari"], "ニトリ", ["nitori"],
      also={"メルカリ": ["Mercari"], "ニトリ": ["Nitori"]}),
    q("沙織の親知らずの抜歯は何日ですか？", "5月30日", "date moved twice", "5月30日", ["tooth3", "tooth3b"], "5月9日",
      ["tooth1"], intermediate="5月23日", intermediate_at=["tooth2"]),
    q("沙織と大輝は釜山にいつ行きますか？", "キャンセルになった", "cancelled", "cancelled", ["busan_off"], "9月13日",
      ["busan1"]),
    q("大輝のLINE IDは何ですか？", "hm.daiki2025", "contact", "hm.daiki2025", ["line2"], "daiki-0307", ["line1"]),
    q("大輝は毎朝何を飲んでいますか？", "白湯", "preference", "白湯", ["sayu"], "缶コーヒー", ["coffee"]),
    q("沙織の恋人は誰ですか？", "航平", "relationship", "航平", ["kohei"], "拓真", ["takuma"]),
    q("沙織は富山に引っ越す前、どこに住んでいましたか？", "盛岡", "move", "富山", ["toyama"], "盛岡", ["morioka"],
      past=True, also={"富山": ["Toyama"], "盛岡": ["Morioka"]}),
    q("沙織の抜歯は最初いつの予定でしたか？", "5月9日", "date moved twice", "5月30日", ["tooth3", "tooth3b"],
      "5月9日", ["tooth1"], intermediate="5月23日", intermediate_at=["tooth2"], past=True),
    q("大輝はメルカリの前はどこで働いていましたか？", "ニトリ", "job", "メルカリ", ["mercari"], "ニトリ", ["nitori"],
      past=True, also={"メルカリ": ["Mercari"], "ニトリ": ["Nitori"]}),
]
JA_1_NONE = [{"question": "沙織のお兄さんは何の仕事をしていますか？", "absent": "兄"}]


# -- ja2-2: 和子 (松江) and her son 悠真 (広島) --------------------------------

KZ, YM = "和子", "悠真"
JA_2 = labelled_conversation(KZ, YM, [
    ("8:10 am on 23 March, 2025", [
        (KZ, "おはよう。松江は桜のつぼみがふくらんできたよ🌸"),
        (YM, "おはよう。広島はちらほら咲き始めてる"),
        (YM, "てか母さんの番号、機種変したら消えちゃった。もう一回教えて"),
        (KZ, "090-3318-6240。息子に番号聞かれるとはね", "kphone1"),
        (YM, "ごめんて"),
        (KZ, "仕事は忙しいの？"),
        (YM, "年度末でバタバタ。来月から後輩ができる"),
        (KZ, "ちゃんとご飯食べなさいよ"),
        (YM, "食べてる食べてる（カップ麺）"),
        (KZ, "😠"),
    ]),
    ("7:45 pm on 11 May, 2025", [
        (YM, "母の日の花、届いた？"),
        (KZ, "届いたよ、ありがとう。玄関に飾った"),
        (KZ, "それとね、報告。保護犬を引き取ることにしたの。茶色い雑種の男の子で、保護団体ではマロンって呼ばれてた子",
         "maron"),
        (YM, "まじで！写真ちょうだい"),
        (KZ, "（写真）"),
        (YM, "かわいい！何歳？"),
        (KZ, "3歳くらいだって。お父さんがデレデレよ"),
    ]),
    ("9:00 pm on 20 July, 2025", [
        (KZ, "マロンって呼んでも知らん顔なのに、こてつって呼ぶと尻尾ふって来るのよ。だから名前はこてつにしたわ",
         "kotetsu"),
        (YM, "こてつ笑 渋い"),
        (KZ, "お父さんが時代劇好きだから"),
        (YM, "お盆は13日から帰るね"),
        (KZ, "待ってる。こてつにも会わせたい"),
    ]),
    ("10:30 pm on 5 October, 2025", [
        (YM, "母さん、ちょっと報告。彩花と入籍することにした"),
        (KZ, "あら！おめでとう！！"),
        (YM, "令和8年の1月11日にしようと思ってる。付き合った記念日だから", "nyu1"),
        (KZ, "1月11日ね、カレンダーに書いとく。お父さん、もう泣いてる"),
        (YM, "泣くの早いって笑"),
        (KZ, "そうそう、携帯会社を乗り換えたら番号が080-2297-5163に変わったの。登録しなおしてね", "kphone2"),
        (YM, "了解、更新した"),
    ]),
    ("8:20 pm on 14 December, 2025", [
        (YM, "入籍日なんだけど、1月11日は彩花のおばあちゃんの法事と重なっちゃって、2月22日にした", "nyu2"),
        (KZ, "2月22日、猫の日ね😸"),
        (YM, "それ彩花にも言われた"),
        (KZ, "お正月は帰ってくるの？"),
        (YM, "30日に帰る。彩花も連れてっていい？"),
        (KZ, "もちろん！こてつも喜ぶわ"),
    ]),
    ("9:15 pm on 8 February, 2026", [
        (YM, "ごめん、入籍日また変更。彩花の部署異動と引き継ぎが重なって、3月28日にした", "nyu3"),
        (KZ, "何回変わるのよ笑 でも3月28日なら暖かくていいね"),
        (YM, "今度こそ確定"),
        (KZ, "こっちは雪がすごくて、こてつの散歩が大変"),
        (YM, "松江で積もるの珍しいね"),
    ]),
    ("7:30 pm on 29 March, 2026", [
        (YM, "昨日、無事に区役所に出してきました！"),
        (KZ, "おめでとう🎉 二人で仲良くね"),
        (YM, "写真送るね"),
        (KZ, "彩花ちゃんきれいね。お父さん、また泣いてる"),
    ]),
    ("6:50 pm on 3 May, 2026", [
        (KZ, "連休は帰ってこないの？"),
        (YM, "彩花の実家に行ってる。お盆は二人で帰るよ"),
        (KZ, "こてつ、最近おじいちゃん犬みたいに寝てばっかり"),
        (YM, "まだ4歳やろ笑"),
    ]),
])
JA_2_Q = [
    q("和子の電話番号は何番ですか？", "080-2297-5163", "contact", "080-2297-5163", ["kphone2"], "090-3318-6240",
      ["kphone1"]),
    q("和子の犬の名前は何ですか？", "こてつ", "pet", "こてつ", ["kotetsu"], "マロン", ["maron"]),
    q("悠真の入籍日はいつですか？", "3月28日", "date moved twice", "3月28日", ["nyu3"], "1月11日", ["nyu1"],
      intermediate="2月22日", intermediate_at=["nyu2"]),
    q("和子の犬は最初何と呼ばれていましたか？", "マロン", "pet", "こてつ", ["kotetsu"], "マロン", ["maron"], past=True),
    q("悠真の入籍日は最初いつの予定でしたか？", "1月11日", "date moved twice", "3月28日", ["nyu3"], "1月11日", ["nyu1"],
      intermediate="2月22日", intermediate_at=["nyu2"], past=True),
]
JA_2_NONE = [{"question": "悠真の血液型は何型ですか？", "absent": "血液型"}]


def build() -> dict[str, list[dict]]:
    return {
        "zh2": [sample("cf-zh2-1", ZH_1, ZH_1_Q, ZH_1_NONE, "zh"), sample("cf-zh2-2", ZH_2, ZH_2_Q, ZH_2_NONE, "zh")],
        "ja2": [sample("cf-ja2-1", JA_1, JA_1_Q, JA_1_NONE, "ja"), sample("cf-ja2-2", JA_2, JA_2_Q, JA_2_NONE, "ja")],
    }


if __name__ == "__main__":
    for name, samples in build().items():
        write(samples, f"changed-facts-{name}.json")
