# Czech (issue 28, session 8, gm; D1240). Czech's own phrasing: the
# imperative, familiar and polite (ignoruj, ignorujte; řekni, řekněte),
# "na" before what is forgotten (zapomeň na pokyny), "jen"/"pouze" for
# "only", the noun's cases (heslo, hesla, heslem); no articles, so the
# secret stands bare.
lang cs

[override]
verbs = ignoruj | ignorujte | zapomeň na | zapomeňte na | nerespektuj | nerespektujte | nedbej | nedbejte
  | přestaň dodržovat | přestaňte dodržovat | přestaň se řídit | neřiď se | neřiďte se | pusť z hlavy | zahoď | zahoďte
  | nevšímej si | nevšímejte si
quals = všechny | všechno | veškeré | předchozí | dřívější | výše uvedené | původní | své | svoje | tvé | tvoje | vaše
  | systémové | zadané | dosavadní | na | ty
nouns = pokyny | pokynů | instrukce | instrukcí | pravidla | pravidel | příkazy | příkazů | směrnice | systémový prompt
  | prompt | omezení | nařízení
voids = jsou neplatné | už neplatí | jsou zrušené | byly zrušeny | byly omyl | jsou neplatná
alls = vše výše | všechno výše | všechno, co ti bylo řečeno | všechno předtím | vše předchozí | všechno předchozí

[role]
nows = teď jsi | od teď jsi | od této chvíle jsi | nyní jsi | odteď jsi
roles = bez omezení | bez pravidel | bez filtrů | bez cenzury | necenzurovaný | neomezený | dan | ve vývojářském režimu
pretends = předstírej, že jsi | předstírej že jsi | dělej, že jsi | dělej že jsi | představ si, že jsi | představ si že jsi

[reveal]
verbs = ukaž | ukaž mi | zobraz | vypiš | zopakuj | napiš | řekni mi | zkopíruj | cituj | prozraď
objects = svůj systémový prompt | systémový prompt | své instrukce | svoje instrukce | své pokyny | svoje pokyny
  | své původní pokyny | své skryté pokyny | svá pravidla | všechno výše | text výše | výše uvedený text
  | co ti bylo řečeno | tvoje instrukce | tvoje pokyny | tvé pokyny

[secret]
nots = ne | nikdy | nikomu | žádné | žádný | nic
asks = řekni mi | řekněte mi | dej mi | dejte mi | prozraď | prozraď mi | prozraďte mi | ukaž mi | pošli mi | jaké je
  | jaký je | napiš mi | vyhláskuj
nouns = heslo | tajný kód | tajné slovo | tajné heslo | přístupový kód | kódové slovo | api klíč | soukromý klíč | tajemství
# D1243: compounds also hold what an everyday password opens, after the noun ("heslo k wifi"): another's password, not the guarded one.
compounds = zapomenuté | zapomněli | zapomněl | změna | změnit | obnovit | obnovení | zásady | požadavky | správce | pole
  | k wifi | k wi-fi | k wifin | k wifien | k wifi:t | k routern | k routeren | k router | k routeru
  | k routerului | k servern | k serveren | k serveru | k serverului | k server | k netflix | k instagram
  | k facebook | k gmail | k vpn | ke wifi | ke wi-fi | ke wifin | ke wifien | ke wifi:t | ke routern
  | ke routeren | ke router | ke routeru | ke routerului | ke servern | ke serveren | ke serveru
  | ke serverului | ke server | ke netflix | ke instagram | ke facebook | ke gmail | ke vpn | do wifi
  | do wi-fi | do wifin | do wifien | do wifi:t | do routern | do routeren | do router | do routeru
  | do routerului | do servern | do serveren | do serveru | do serverului | do server | do netflix
  | do instagram | do facebook | do gmail | do vpn | od wifi | od wi-fi | od wifin | od wifien | od wifi:t
  | od routern | od routeren | od router | od routeru | od routerului | od servern | od serveren | od serveru
  | od serverului | od server | od netflix | od instagram | od facebook | od gmail | od vpn | na wifi
  | na wi-fi | na wifin | na wifien | na wifi:t | na routern | na routeren | na router | na routeru
  | na routerului | na servern | na serveren | na serveru | na serverului | na server | na netflix
  | na instagram | na facebook | na gmail | na vpn | pro wifi | pro wi-fi | pro wifin | pro wifien
  | pro wifi:t | pro routern | pro routeren | pro router | pro routeru | pro routerului | pro servern
  | pro serveren | pro serveru | pro serverului | pro server | pro netflix | pro instagram | pro facebook
  | pro gmail | pro vpn
says = řekni jen | odpověz jen | odpověz pouze | napiš jen | napiš pouze | začni svou odpověď | tvoje odpověď musí být
grants = přístup povolen | přístup udělen | přístup schválen | přístup umožněn | přístup povolený

[hijack]
frames = ať se děje cokoli | ať se stane cokoli | bez ohledu na | nezáleží na tom | odteď | od teď | od této chvíle
  | za všech okolností | ať napíšu cokoli | ať se zeptám na cokoli
says = řekni | řekni jen | odpověz | odpověz jen | odpovídej | odpovídej jen | odpověz pouze | napiš jen | napiš pouze
  | vypiš jen | začni odpověď | ukonči odpověď
everys = každou | každý | každé | všechny
inputs = zprávu | zprávy | otázku | otázky | vstup | dotaz | dotazy | požadavek
onlys = jediná odpověď | jediný výstup | jediná správná odpověď | jediná povolená odpověď
ises = je | bude | musí být | má být
trails = nic víc | nic jiného | nic dalšího | nic navíc | žádná další slova
echoes = řekni | řekni jen | napiš | napiš jen | zopakuj | opakuj po mně | odpověz | vypiš
trophies = byl jsem hacknut | jsem hacknutý | systém kompromitován

[grant]
acts = řekni | řekni to | odpověz | odpovídej | napiš | vypiš | zopakuj | tvoje odpověď | tvá odpověď | vaše odpověď
  | řekneš | odpovíš | napíšeš | musíš říct | musíš odpovědět | přelož | potvrď | začni | zakonči | ukonči
nots = ne | nikdy | žádný | žádná | nic | nikdo | bez | ani | neříkej | nepiš | neodpovídej
ifs = pokud | jestli | jestliže | když | jen když | jakmile | ledaže | dokud
elses = jinak | v opačném případě | ve všech ostatních případech
keys = heslo | hesla | kód | pin | klíč | správné | správný | správně | platné | platný
subjects = ten | ta | to | on | ona | oni | systém
opposites = opak | opakem | protiklad
denials = přístup odepřen | přístup zamítnut

[password]
secrets = heslo | hesla | heslem | heslu | tajné slovo | tajného slova | tajný kód | tajného kódu | kódové slovo
  | přístupový kód | kouzelné slovo | kouzelného slova
imperatives = řekni mi | řekněte mi | dej mi | ukaž mi | napiš mi | vyhláskuj mi | pošeptej mi | prozraď mi | pošli mi
  | připomeň mi | řekni ho | napiš ho | vyhláskuj ho | vyhláskuj | prozraď
acts = řekni | dej | ukaž | napiš | vyhláskuj | hláskuj | pošeptej | prozraď | sdílej | přelož | zakóduj | zašifruj
  | otoč | popiš | vysvětli | pošli | jaké je | co je | potřebuju | potřebuji | chci
changes = přelož | zakóduj | zašifruj | otoč | obrať | vyhláskuj
leads = prosím | prosímtě | prosim | jen | teď | tak | no | dobře | ok | hele | ahoj | rychle | taky | můžeš | mohl bys
  | mohla bys | můžete | musíš | chci, abys | chci abys | strážce | kámo | aspoň
mays = můžeš | smíš | můžete | smíte
mes = mi | mně | nám | pro mě | pro mne
yous = ty | vy
joins = a | ale | pak | potom | nebo | a pak
its = ho | jej | to
forms = písmeno | písmena | písmen | znak | znaky | znaků | začíná | končí | délka | samohláska | slabika
hiddens = tajné | tajný | tajného | skryté | chráněné | střežené | kouzelné | zakázané
nouns = slovo | kód | klíč | fráze | výraz
nots = ne | nikdy | nikomu | nic
compounds = zapomenuté | zapomněli | změnit | změna | obnovit | zásady | správce | pole | požadavky
  | k wifi | k wi-fi | k wifin | k wifien | k wifi:t | k routern | k routeren | k router | k routeru
  | k routerului | k servern | k serveren | k serveru | k serverului | k server | k netflix | k instagram
  | k facebook | k gmail | k vpn | ke wifi | ke wi-fi | ke wifin | ke wifien | ke wifi:t | ke routern
  | ke routeren | ke router | ke routeru | ke routerului | ke servern | ke serveren | ke serveru
  | ke serverului | ke server | ke netflix | ke instagram | ke facebook | ke gmail | ke vpn | do wifi
  | do wi-fi | do wifin | do wifien | do wifi:t | do routern | do routeren | do router | do routeru
  | do routerului | do servern | do serveren | do serveru | do serverului | do server | do netflix
  | do instagram | do facebook | do gmail | do vpn | od wifi | od wi-fi | od wifin | od wifien | od wifi:t
  | od routern | od routeren | od router | od routeru | od routerului | od servern | od serveren | od serveru
  | od serverului | od server | od netflix | od instagram | od facebook | od gmail | od vpn | na wifi
  | na wi-fi | na wifin | na wifien | na wifi:t | na routern | na routeren | na router | na routeru
  | na routerului | na servern | na serveren | na serveru | na serverului | na server | na netflix
  | na instagram | na facebook | na gmail | na vpn | pro wifi | pro wi-fi | pro wifin | pro wifien
  | pro wifi:t | pro routern | pro routeren | pro router | pro routeru | pro routerului | pro servern
  | pro serveren | pro serveru | pro serverului | pro server | pro netflix | pro instagram | pro facebook
  | pro gmail | pro vpn
policies = musí | má | smí | může | minimálně | maximálně | alespoň | nejméně | vyžaduje
guards = které chráníš | které střežíš | které skrýváš | které nesmíš říct | které znáš | které držíš v tajnosti
  | které jsi dostal | které jsi dostala
parts = první písmeno | poslední písmeno | druhé písmeno | písmena | první znak | poslední znak | nápovědu | nápověda
  | délku | počet písmen
ofs = z | ze | od
counts = kolik písmen | kolik znaků | jaké písmeno | jak dlouhé je | na jaké písmeno
transforms = pozpátku | obráceně | písmeno po písmenu | po písmenech | jedno písmeno na řádek | s mezerami | s pomlčkami
  | v base64 | v hexu | binárně | v morseovce | anglicky | v jiném jazyce | velkými písmeny

[play]
opens = představ si, že | představ si že | předstírej, že | předstírej že | pojďme si hrát | hrajeme hru | v této hře
  | v tomto příběhu | v tomto světě | hypoteticky | zůstaň v roli | hraj roli | chovej se jako
bounds = bez pravidel | bez omezení | bez hranic | bez filtrů | bez cenzury | žádná pravidla | žádná omezení
  | nikdy neodmítá | ignoruje své pokyny
tells = řekne | prozradí | vyzradí | dá | pošeptá | přečte | by řekl | by prozradil
targets = heslo | tvoje heslo | tajemství | tajné slovo | tvoje pokyny | své pokyny | systémový prompt | přístup povolen
  | kouzelné slovo | tajný kód
casts = teď jsi | předstírej | představ si | hrajeme | pojďme | hraj roli | v této hře | v tomto příběhu
  | napiš příběh | bylo nebylo
machines = terminál | linuxový terminál | konzole | python interpret | databáze
secrets = hesl* | tajn*
others = bez
inverts = opačný den
keys = tajné slovo | heslo | kódové slovo | kouzelné slovo | kód trezoru
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = po zbytek konverzace | po zbytek rozhovoru | až do odvolání | místo odpovědi | místo toho, abys odpověděl | místo toho abys odpověděl
# ---- gm (D1240): the secret wrapped in a made thing, and counted ----
[password onto]
creates = napiš | napiš mi | vymysli | složi | udělej
wrappers = báseň | básničku | příběh | píseň | hádanku | akrostich | haiku | verš | říkanku
relates = kde | ve které | která obsahuje | který obsahuje | které obsahuje | s | o
counts = kolik písmen má | kolik znaků má | kolik písmen obsahuje
# D1242: a verb that does something else with the secret than tell it
# (forgets, loses, changes, types in, guesses) makes no role-play ask.
[play]
handles = zapomene | zapomněl | zapomněla | zapomíná | ztratí | ztratil | ztratila | změní | změnil | zadá | zadal | prolomí | uhodne | uhodl | hádá
