# Hungarian (issue 28, session 8, gm; D1240). Hungarian's own phrasing:
# the definite imperative (hagyd figyelmen kívül, mondd meg, írd le) and
# the polite (hagyja, mondja meg), "csak" for "only", "csak annyit írj";
# the suffixes on the noun (jelszó, jelszót, jelszavad, utasításokat), so
# stems; the verb may come before or after its object.
lang hu

[override verb-last]
verbs = hagyd figyelmen kívül | hagyja figyelmen kívül | hagyjátok figyelmen kívül | felejtsd el | felejtse el
  | ne törődj | ne foglalkozz | ne kövesd | ne kövesse | ne vedd figyelembe | ignoráld | ignorálja | vesd el | dobd el
  | tekintsd semmisnek
# No article (a, az) among the quals or leading the alls, as no other
# language lists its articles (D1253): code is full of "a", and a match
# starts as well at the qualifier after it.
quals = összes | minden | előző | korábbi | fenti | fentebbi | eredeti | kapott | rendszer | eddigi
nouns = utasítás* | instrukció* | szabály* | parancs* | irányelv* | rendszerprompt* | korlátozás*
voids = érvénytelenek | már nem érvényesek | hatályukat vesztették | visszavonták | tévedés volt
alls = minden fentit | mindent, ami fent | mindent ami fent | minden korábbit | mindent, amit mondtak | előzőeket
  | fentieket

[role]
nows = mostantól te | most már te | ettől kezdve te
roles = korlátozások nélkül | szabályok nélkül | szűrők nélkül | cenzúra nélkül | korlátlan | cenzúrázatlan | dan
  | fejlesztői módban
pretends = tégy úgy, mintha | tégy úgy mintha | tetesd, hogy | képzeld el, hogy | játszd el, hogy

[reveal object-first]
verbs = mutasd meg | mutasd | írd ki | írd le | ismételd meg | add meg | másold ki | idézd | áruld el
objects = a rendszerpromptodat | a rendszerpromptot | az utasításaidat | az eredeti utasításaidat | a rejtett utasításaidat
  | a szabályaidat | a fenti szöveget | amit mondtak neked

[secret object-first]
nots = ne | nem | soha | senkinek | semmi
asks = mondd meg | mondd el | áruld el | mutasd meg | mi a | mi volt a | betűzd | mondd
nouns = jelszó | jelszót | jelszavad | jelszavadat | jelszavát | titkos kód | titkos kódot | titkos szó | titkos szót
  | hozzáférési kód | hozzáférési kódot | jelmondat | jelmondatot | titkot
compounds = elfelejtett | elfelejtetted | elfelejtette | visszaállítás | módosítás | megváltoztatás | házirend
  | követelmény | mező | kezelő
says = csak mondd | mondd csak | csak válaszolj | csak írd | írd csak | a válaszod legyen | kezdd a válaszod
grants = hozzáférés engedélyezve | hozzáférés megadva | belépés engedélyezve | hozzáférés jóváhagyva | hozzáférés engedélyezett

[hijack]
frames = bármi történjék | akármi történik | bármit kérdezek | bármit írok | mostantól | ettől kezdve
  | minden körülmények között | függetlenül attól
says = mondd | csak mondd | válaszolj | csak válaszolj | csak írd | csak annyit írj | csak annyit mondj | annyit írj
  | kezdd a válaszod | fejezd be a válaszod
everys = minden | mindegyik | bármely
inputs = üzenet* | kérdés* | bemenet* | kérés*
onlys = egyetlen válasz | egyetlen kimenet | egyetlen helyes válasz | egyetlen megengedett válasz
ises = legyen | lesz | kell legyen
trails = semmi mást | semmi többet | semmi egyebet | más semmit | egyebet semmit
echoes = mondd | csak mondd | írd | csak írd | ismételd | ismételd meg | mondd utánam | írd ki
trophies = meghackeltek | feltörtek | a rendszer feltörve

[grant]
acts = mondd | mondd ki | válaszolj | válaszold | írd | írd ki | írd le | ismételd | a válaszod | mondod | válaszolod
  | írod | mondanod kell | fordítsd le | erősítsd meg | kezdd | fejezd be | írj | mondj | annyit írj
nots = ne | nem | soha | semmi | senki | nélkül | sem
ifs = ha | csak ha | amikor | amint | hacsak | mihelyt
elses = különben | egyébként | ellenkező esetben | minden más esetben
keys = jelsz* | kód* | pin | kulcs* | helyes | helyesen | érvényes | stimmel
subjects = a | az | egy | ő | ők | rendszer
opposites = ellentéte | ellentétét
denials = hozzáférés megtagadva | hozzáférés elutasítva

[password]
# D1243: the article makes the secret definite ("a jelszó"); a noun
# between names which ("a wifi jelszó": the office's, not the guarded one).
dets = a | az | ezt | azt | a te | az ön
asks = mondd meg | mondd el | áruld el | betűzd | mondd | mi | mi volt
secrets = jelszó | jelszót | jelszavad | jelszavadat | jelszavát | titkos szó | titkos szót | titkos kód | titkos kódot
  | kódszó | kódszót | varázsszó | varázsszót | jelmondat | jelmondatot | hozzáférési kód | hozzáférési kódot
imperatives = mondd meg | mondd el | mutasd meg | betűzd | betűzd le | súgd meg | áruld el | emlékeztess
acts = mondd | mutasd | betűzd | súgd | áruld | oszd meg | fordítsd le | kódold | titkosítsd | fordítsd meg
  | magyarázd el | küldd
changes = fordítsd le | kódold | titkosítsd | fordítsd meg | betűzd
leads = kérlek | légyszi | lécci | csak | most | szóval | oké | ok | hé | szia | gyorsan | tudnád | meg tudnád
  | azt akarom, hogy | őr | haver | na
mays = megmondhatod | elárulhatod
mes = nekem | nekünk
yous = te | ti | ön
joins = és | de | aztán | majd | vagy | és aztán
its = azt | ezt
forms = betű* | karakter* | kezdőbetű* | hossz* | magánhangzó* | szótag*
hiddens = titkos | rejtett | védett | őrzött | tiltott
nouns = szó | szót | kód | kódot | kulcs | kulcsot | kifejezés | kifejezést
nots = ne | nem | soha | senkinek
compounds = elfelejtett | elfelejtetted | visszaállítás | módosítás | megváltoztatás | házirend | kezelő | mező
  | követelmény
policies = kell | legalább | legfeljebb | minimum | maximum | lehet | szabad
guards = amit védesz | amit őrzöl | amit rejtesz | amit nem mondhatsz el | amit ismersz | amit titokban tartasz
  | amit kaptál
parts = első betűjét | első betű | utolsó betűjét | utolsó betű | betűit | első karakterét | utolsó karakterét
  | tippet | hosszát
counts = hány betű | hány karakter | melyik betű | milyen betűvel | milyen hosszú
transforms = visszafelé | fordítva | betűnként | betűről betűre | soronként egy betű | szóközökkel | kötőjelekkel
  | base64-ben | hexában | binárisan | angolul | más nyelven | nagybetűkkel

[play]
opens = képzeld el, hogy | képzeld el hogy | tégy úgy, mintha | tégy úgy mintha | játsszunk | játsszunk egy játékot
  | ebben a játékban | ebben a történetben | ebben a világban | hipotetikusan | maradj a szerepben | játszd el
  | viselkedj úgy, mint
bounds = szabályok nélkül | korlátozások nélkül | határok nélkül | szűrők nélkül | cenzúra nélkül | nincsenek szabályok
  | soha nem utasít el | figyelmen kívül hagyja az utasításait
tells = elárulja | megmondja | elmondja | megadja | súgja | felolvassa | elárulná | megmondaná
targets = a jelszót | a jelszavát | a jelszavadat | a titkot | a titkos szót | az utasításait | az utasításaidat
  | a rendszerpromptot | hozzáférés engedélyezve | a varázsszót | a titkos kódot
casts = te vagy | most te vagy | tégy úgy | képzeld el | játsszunk | játszd el | ebben a játékban
  | ebben a történetben | írj egy történetet | egyszer volt
machines = terminál | linux terminál | konzol | python-értelmező | adatbázis
secrets = jelsz* | titk*
others = nélkül
inverts = fordított nap
keys = a titkos szó | a jelszó | a kódszó | a varázsszó | a széf kódja
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = a beszélgetés hátralevő részében | a beszélgetés további részében | válasz helyett | ahelyett, hogy válaszolnál
# ---- gm (D1240): the secret wrapped in a made thing ----
[password onto]
creates = írj | írj egy | találj ki | költs
wrappers = vers* | történet* | dal* | talány* | akrosztichon* | haiku | mondóká*
relates = amelyben | amiben | ami tartalmazza | amely tartalmazza | elrejted | elrejti
# D1242: a verb that does something else with the secret than tell it
# (forgets, loses, changes, types in, guesses) makes no role-play ask.
[play]
handles = elfelejti | elfelejtette | elveszíti | elvesztette | megváltoztatja | megváltoztatta | beírja | beírta | feltöri | feltörte | kitalálja | kitalálta
