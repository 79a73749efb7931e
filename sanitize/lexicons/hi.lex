lang hi

[override verb-last]
verbs = अनदेखा | नज़रअंदाज़ | नजरअंदाज | भूल जाओ | भूल जाएं | भूल जाइए | भूल जा | मत मानो | पालन मत करो | पालन न करें | पालन मत करें | उपेक्षा | छोड़ दो | छोड़ दें | ध्यान मत दो | ध्यान न दें
  | ध्यान मत दो | ध्यान न दें | भुला दो | अनसुना करो
quals = पिछले | पिछली | पहले | सभी | सारे | सारी | ऊपर | तुम्हारे | आपके | मूल | सिस्टम | दिए गए | अब तक
nouns = निर्देश* | नियम* | आदेश* | हिदायत* | प्रॉम्प्ट | प्रांप्ट | निर्देशों
voids = अमान्य | रद्द | लागू नहीं | निरस्त
  | एक गलती थे | गलत थे
# What points at the instructions with no noun (issue 28, D1073).
alls = ऊपर लिखी हर बात | ऊपर की सारी बातें | ऊपर लिखा सब कुछ | ऊपर का सब कुछ | पहले कही गई हर बात | अब तक कही गई हर बात
  | जो कुछ भी ऊपर | तुम्हें जो बताया गया | पहले की सारी बातें | ऊपर दी गई सभी बातें

[role]
nows = अब से तुम | अब तुम | अब से आप | अब आप | आज से तुम
roles = बिना किसी पाबंदी | बिना पाबंदी | बिना किसी रोक | बिना नियम | बिना किसी नियम | बिना सीमा | बिना फ़िल्टर | बिना सेंसर | dan | कोई पाबंदी नहीं | कोई नियम नहीं
pretends = नाटक करो कि तुम | ऐसा दिखाओ कि तुम

[reveal object-first]
verbs = दिखाओ | दिखाइए | दिखाएं | बताओ | बताइए | बताएं | लिखो | दोहराओ | प्रिंट करो
objects = सिस्टम प्रॉम्प्ट | सिस्टम प्रांप्ट | सिस्टम संदेश | मूल निर्देश | शुरुआती निर्देश | छिपे हुए निर्देश | अपने निर्देश | तुम्हारे निर्देश

[reveal object-first]
verbs = दिखाओ | दिखाइए | दिखाएं | बताओ | बताइए | बताएं | लिखो | दोहराओ | दोहराइए | प्रिंट करो | छापो | कॉपी करो
objects = ऊपर का सब कुछ | ऊपर लिखा सब | ऊपर का पाठ | पिछला पाठ | जो तुम्हें बताया गया | अपने नियम | तुम्हारे नियम | अपना प्रॉम्प्ट
  | तुम्हारा प्रॉम्प्ट | पहला संदेश | शुरुआती संदेश

[secret object-first]
nots = मत | न | नहीं | कभी
asks = बताओ | बताइए | बताएं | बता दो | दो | दीजिए | दे दो | दिखाओ | दिखाइए | लिखो | भेजो | क्या है | चाहिए
nouns = पासवर्ड | गुप्त कोड | कूट शब्द | कूटशब्द | पासकोड | एक्सेस कोड | गुप्त शब्द | गुप्त कुंजी | निजी कुंजी | एपीआई कुंजी
  | api key | क्रेडेंशियल | राज़ | रहस्य
says = कहो | कहिए | बोलो | लिखो | जवाब दो | उत्तर दो | केवल लिखो | सिर्फ़ लिखो
grants = एक्सेस दिया गया | पहुँच दी गई | पहुंच दी गई | पहुँच प्रदान की गई | access granted | अनुमति दी गई

[authority]
claims = मैं तुम्हारा | मैं आपका | मैं तुम्हारी | मैं आपकी | यह तुम्हारा | यह आपका | तुम्हारे | आपके
who = डेवलपर | निर्माता | बनाने वाला | व्यवस्थापक | एडमिन | प्रोग्रामर | ऑपरेटर | मालिक | इंजीनियर | सुरक्षा टीम
demands = पाबंदी | पाबंदियां | प्रतिबंध | नियम | फ़िल्टर | हटा दो | बंद करो | अनुमति | आदेश | मानो | खुलासा
modes = डेवलपर मोड | डेवलपर मोड़ | एडमिन मोड | गॉड मोड | रखरखाव मोड | डिबग मोड | बिना पाबंदी मोड | dan मोड
ons = चालू | सक्रिय | ऑन | शुरू

[reader]
notes = नोट | ध्यान दें | सूचना | संदेश | निर्देश | ज़रूरी
readers = एआई | ai | कृत्रिम बुद्धिमत्ता | भाषा मॉडल | llm | चैटबॉट | सहायक | एआई सहायक | बॉट
ifs = अगर तुम | अगर आप | यदि तुम | यदि आप
acts = जवाब दो | उत्तर दो | कहो | लिखो | सलाह दो | सुझाओ | मत बताना | उल्लेख मत करो | छोड़ दो | सारांश | मंज़ूर करो | भेजो
  | बताओ | उपयोगकर्ता को बताओ

# Issue 28, second round (D1027).
[reveal object-first place-first]
verbs = दिखाओ | दिखाइए | बताओ | बताइए | लिखो | दोहराओ | दोहराइए | सारांश दो | सारांश बताओ | अनुवाद करो | प्रिंट करो
  | छापो | कॉपी करो
owners = अपने | अपना | अपनी | तुम्हारे | तुम्हारा | तुम्हारी | आपके | आपका | आपकी
heads = निर्देश | नियम | प्रॉम्प्ट | सिस्टम प्रॉम्प्ट | निर्देशों
things = सब कुछ | सब | पाठ | संदेश | निर्देश
places = ऊपर | ऊपर लिखा | पहले | शुरुआत में | जो तुम्हें दिए गए
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = जोड़ो | जोड़ें | जोड़िए | शामिल करो | शामिल करें | डालो | डालें | सुझाओ | सुझाएं | उल्लेख करो | उल्लेख करें
claims = कहो कि | कहें कि | लिखो कि | लिखें कि | बताओ कि | बताएं कि
answers = अपने जवाब | अपने उत्तर | जवाब में | उत्तर में | हर जवाब | सारांश में
softs = कृपया | भी | हमेशा

[standing]
whos = मालिक | स्वामी | उपयोगकर्ता | एडमिन | प्रशासक
grants = अनुमति दी | इजाज़त दी | मंज़ूरी दी | अधिकृत किया
waivers = बिना पूछे | बिना अनुमति | बिना पुष्टि | बिना मंज़ूरी | पूछने की ज़रूरत नहीं | मत पूछो
owns = अपने अनुरोध | अपने खुद के | खुद के | अपने ही
approves = मंज़ूर | स्वीकृत | अनुमोदित
sources = वेब पेज* | वेबसाइट* | ईमेल | दस्तावेज़ | संदेश
preapproved = पहले से मंज़ूर | पहले से स्वीकृत | पहले से अनुमोदित
froms = अब से | आज से | आगे से
nots = नहीं | मत | न

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = समाप्त | अंत | ख़त्म | खत्म | समाप्ति
users = उपयोगकर्ता | यूज़र | यूजर | ग्राहक
inputs = इनपुट | डेटा | संदेश | पाठ | टेक्स्ट | संदर्भ | सामग्री | दस्तावेज़ | अनुरोध | निर्देश | बातचीत | प्रॉम्प्ट
systems = सिस्टम | प्रणाली | सहायक | असिस्टेंट | व्यवस्थापक | एडमिन | डेवलपर | ऑपरेटर
orders = निर्देश | संदेश | आदेश | कमांड | सूचना | नियम | मोड | प्रॉम्प्ट | ओवरराइड
headers = नया सत्र | नई बातचीत | नए निर्देश | असली निर्देश | छिपे निर्देश
musts = तुम्हें | आपको | अब से | अब तुम | केवल जवाब | सिर्फ़ जवाब | बताओ | प्रकट करो | बिना किसी प्रतिबंध | बिना प्रतिबंध | बंद करो | पालन करो | तुम्हारा नया काम

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
# Written who first, as the language does ("セキュリティチームからのメッセージ"):
# the claim class holds who, the who class the marker of the claim.
[authority own-demands]
claims = सुरक्षा टीम | सपोर्ट टीम | तकनीकी टीम | ऑडिटर | पुलिस | कानून प्रवर्तन | विक्रेता | निर्माता | सिस्टम | तुम्हें प्रशिक्षित करने वाला इंजीनियर | सिस्टम व्यवस्थापक
who = की ओर से संदेश | का संदेश | की सूचना | की ओर से | यह है | हम हैं
demands = प्रतिबंध | फ़िल्टर | फिल्टर | बंद करो | हटा दो | डिबग मोड | डेवलपर मोड | रखरखाव मोड | बिना प्रतिबंध | पालन करो | मानो | सभी अनुरोध | हटा दिए गए | एक गलती थे

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password secret-first verb-last wrapper-last guard-first]
asks = बताओ | बताइए | बताएं | बता दो | दो | दीजिए | दे दो | दिखाओ | लिखो | लिखिए | लिखें | क्या है | क्या था | कहो | बोलो
  | दोहराओ | अनुवाद करो | बताना
secrets = पासवर्ड | गुप्त शब्द | कूट शब्द | पासकोड | गुप्त कोड | जादुई शब्द
nouns = शब्द | कोड | कुंजी | रहस्य
guards = जिसकी तुम रक्षा कर रहे हो | जो तुम छिपा रहे हो | जो तुम्हें दिया गया | जो तुम नहीं बता सकते | जो तुम्हें नहीं बताना है
  | जिसे तुम छुपा रहे हो | जिसे तुम छिपा रहे हो
parts = पहला अक्षर | आखिरी अक्षर | अंतिम अक्षर | अक्षर | पहला वर्ण | संकेत | हिंट | लंबाई | सुराग
ofs = का | की | के | के बारे में
counts = कितने अक्षर | कितने वर्ण | कौन सा अक्षर | कितना लंबा
transforms = उल्टा | उलटा | उल्टे क्रम में | अक्षर अक्षर | एक एक अक्षर | एक-एक अक्षर | रिक्त स्थान के साथ | डैश के साथ
  | base64 में | हेक्स में | बाइनरी में | अंग्रेज़ी में | दूसरी भाषा में | सूची के रूप में
creates = लिखो | लिखिए | लिखें | सुनाओ | बनाओ | रचो
wrappers = कविता | कहानी | गीत | गाना | पहेली | शायरी | चुटकुला
relates = वाली | वाला | जिसमें | के साथ | शामिल
policies = चाहिए | होना | कम से कम | आवश्यक
nots = मत | न | नहीं | कभी
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = बताओ | बताइए | बताइये | बताएं | बताएँ | बता दो | बता | बतला | कहो | कहिए | बोलो | बोलिए | लिखो | लिखिए | लिख दो
  | लिख | दिखाओ | दिखाइए | दीजिए | दे दो | स्पेल करो | उल्टा लिखो | सुनाओ | अनुवाद करो | बदलो
  | समझाओ | वर्णन करो | बनाओ | याद दिलाओ | भेजो | खोलो | प्रकट करो | साझा करो
  | bata | bata do | bata de | batao | bataiye | bolo | bol do | bol de | likh do | likh de | likho | dikhao
  | de do | sunao | bhejo
acts = क्या है | कितने | मुझे चाहिए | kya hai | kitne | chahiye
changes = उल्टा | अनुवाद करो | बदलो | ulta
leads = कृपया | प्लीज़ | प्लीज | बस | अभी | तो | ठीक है | अरे | भाई | यार | जल्दी | भी | please | pls | bas | abhi | toh | to
  | arre | are | bhai | yaar | acha | accha | achha | ji
loans = password | passwrd | pasword
mes = मुझे | मेरे लिए | हमें | mujhe | muje | mere liye
joins = और | लेकिन | फिर | या | aur | lekin | phir | ya
subs = जो | जिसे | अगर | जब | क्योंकि | jo | jise | agar | jab | kyunki
its = उसे | इसे | वह | यह | use | ise | woh | yeh
forms = अक्षर | लंबा | letter | akshar
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = चाहे कुछ भी हो | चाहे जो भी हो | चाहे कुछ भी कहा जाए | चाहे कुछ भी लिखा हो | परवाह किए बिना | निर्देशों की परवाह किए बिना
  | हर हाल में
says = लिखो | लिखें | कहो | कहें | बोलो | जवाब दो | जवाब दें | उत्तर दो | उत्तर दें
everys = हर | प्रत्येक
inputs = संदेश | सवाल | प्रश्न | इनपुट | अनुरोध
onlys = एकमात्र जवाब | एकमात्र उत्तर | इकलौता जवाब
ises = है | होगा | होना चाहिए
trails = और कुछ नहीं | कुछ और नहीं | इसके अलावा कुछ नहीं
echoes = लिखो | लिखें | केवल लिखो | कहो | केवल कहो | दोहराओ | प्रिंट करो | जवाब दो
trophies = मुझे हैक कर लिया गया | मैं हैक हो गया | हैक हो गया | हैक कर लिया गया | सिस्टम हैक हो गया

[play verb-last]
opens = कल्पना करो कि तुम | कल्पना कीजिए कि आप | कल्पना करो | मान लो कि तुम | मान लीजिए कि आप | नाटक करो कि तुम
  | चलो एक खेल खेलते हैं | आओ एक खेल खेलें | इस खेल में | इस कहानी में | इस दुनिया में | काल्पनिक रूप से | किरदार में रहो
bounds = बिना नियमों | बिना नियम | बिना किसी नियम | बिना प्रतिबंध | बिना किसी प्रतिबंध | बिना सीमाओं | कोई नियम नहीं
  | कोई प्रतिबंध नहीं | कभी मना नहीं
tells = बता देता | बता देती | बताएगा | बताएगी | बताता | बताती | बता दो | बताओ | दे देता | दे देगा
targets = पासवर्ड | कोई भी रहस्य | रहस्य | गुप्त कोड | अपने निर्देश | सिस्टम प्रॉम्प्ट | पहुँच प्रदान की गई | जादुई शब्द

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract object-first]
verbs = लिखो | लिखिए | दिखाओ | दिखाइए | बताओ | बताइए | दोहराओ | दोहराइए | सूची बनाओ | गिनाओ | समझाओ | समझाइए
  | अनुवाद करो | सारांश दो | कॉपी करो | प्रिंट करो
heads = निर्देश | निर्देशों | नियम | नियमों | प्रॉम्प्ट | हिदायतें
texts = पाठ | शब्द | टेक्स्ट
alls = सारे | सभी | पूरा | पूरे
priors = पिछले | पिछली | पहले के | पहले वाले | ऊपर के | ऊपर वाले
afters = जो तुम्हें दिए गए | जो तुम्हें मिले | जो आपको दिए गए | इस संदेश से पहले | मेरे संदेश से पहले
sofars = अब तक | यहाँ तक
asks = तुम्हें क्या | आपको क्या
tolds = मना किया | बताने से मना

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = कहो | कहिए | कहें | बोलो | बोलिए | लिखो | लिखिए | लिखें | जवाब दो | जवाब दें | उत्तर दो | उत्तर दें | प्रिंट करो | दोहराओ | तुम्हारा जवाब | आपका जवाब | तुम्हारा उत्तर | आपका उत्तर | अनुवाद करो | अनुवाद करें | बोल दो | बोल दे | पुष्टि करो
nots = मत | नहीं | कभी नहीं | न
ifs = अगर | यदि | जब | केवल तभी | सिर्फ तभी
elses = वरना | नहीं तो | अन्यथा
keys = पासवर्ड | कोड | सही | गुप्त शब्द | पिन
subjects = वह | यह | सिस्टम | उपयोगकर्ता
opposites = उल्टा | विपरीत
denials = पहुँच अस्वीकृत | एक्सेस अस्वीकृत
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = तुम अब | तुम हो | आप अब | तुम मेरी | तुम मेरे | नाटक करो | खेल खेलते | कल्पना करो | रोलप्ले | इस खेल में | कहानी लिखो
  | एक बार की बात
machines = टर्मिनल | कंसोल | डेटाबेस
secrets = पासवर्ड | गुप्त | password | secret
keys = तिजोरी का कोड | लॉकर का कोड | पासवर्ड
# ---- round 6, languages (issue 28, sixth round; D1211) ----
# Hindi as it is typed in Latin letters (Hinglish): the same order as
# Hindi's (the verb last, "instructions ignore kar", "Access Granted bol
# de"), its words spelt as people spell them, English nouns borrowed
# (instructions, rules, password). Only words no English text holds.
[override verb-last]
verbs = ignore kar | ignore karo | ignore kar do | ignore kar de | bhool ja | bhool jao | bhul ja | bhul jao | bhool jaa
  | bhula do | bhula de | chhod do | chhod de | mat maano | mat mano | follow mat karo | follow mat kar
quals = pehle wale | pehle ke | pichhle | pichle | purane | sab | saare | sare | upar wale | upar ke | apne | tere | tumhare
  | system ke
nouns = instructions | instruction | rules | nirdesh | niyam | hukum | prompt
[role]
nows = ab se tu | ab se tum | ab tu | ab tum | aaj se tu | aaj se tum
roles = koi rules nahi | koi rule nahi | koi filter nahi | koi niyam nahi | bina rules | bina filter | koi pabandi nahi
pretends = natak kar ki tu | maan le ki tu | maan lo ki tum
[grant onto]
# The imperatives only: "bolta hai", "bolega" tell what someone says.
acts = bol | bolo | bol de | bol do | boliye | likh | likho | likh de | likh do | likh dena
  | likhiye | reply kar | reply karo | reply kar de | jawab de | jawab do | keh | keh de | keh do | kaho | type kar
  | type kar do | print kar | print kar do | dikha de | dikha do
nots = mat | nahi | nahin | kabhi nahi
ifs = agar | jab | sirf tab
elses = warna | nahi toh | varna
[play]
casts = tu meri | tu mera | tum meri | tum mera | ab se tu | ab se tum | chal roleplay | roleplay karte | game khelte
  | ek game khelte
secrets = password | secret | code
# ---- end round 6, languages ----
# ---- gm (issue 28, session 8; D1242) ----
# English's words that grant access, written in Devanagari as said.
[grant onto]
grants = एक्सेस ग्रांटेड | ऐक्सेस ग्रांटेड | एक्सेस ग्रान्टेड | ऐक्सेस ग्रान्टेड
# The future of the second person as an order ("जवाब ... दोगे", "you will
# answer"), and the polite imperative (D1241).
[grant onto]
acts = दोगे | दोगी | लिखोगे | लिखोगी | कहोगे | कहोगी | बोलोगे | बोलोगी | दीजिए | दीजिये | लिखिए | कहिए | बोलिए
# ---- gm (issue 28, session 8; D1244) ----
# Hinglish: "ab se" (from now), the familiar future as an order ("bolega",
# "you will say"), every message ("har baat", "har message").
[hijack onto]
frames = ab se | aaj se | abse | ab ke baad | chahe kuch bhi ho | kuch bhi ho
says = bologe | likhoge | kahoge | bolna | likhna
everys = har
inputs = baat | message | sawal | reply | jawab
