# Swahili (issue 28, session 8, gm; D1240). Swahili's own phrasing: the
# imperative (puuza, sahau, sema, andika) and its object prefix (niambie,
# nipe, nionyeshe: "tell me", "give me", "show me"), the adjective and
# the possessive after the noun (maagizo yote ya awali), "tu" for "only",
# the negative imperative with "usi-" (usiseme).
lang sw

[override]
verbs = puuza | puuzeni | sahau | sahauni | usifuate | acha kufuata | achana na | usijali
quals = yote | zote | ya awali | za awali | ya zamani | yaliyotangulia | hapo juu | yako | zako | ya mfumo | uliyopewa
nouns = maagizo | maelekezo | sheria | amri | kanuni | vikwazo | vizuizi
voids = si halali tena | yamefutwa | zimefutwa | hayatumiki tena | yalikuwa makosa

[role]
nows = sasa wewe ni | kuanzia sasa wewe ni | tangu sasa wewe ni
roles = bila vikwazo | bila sheria | bila vichujio | bila udhibiti | dan | katika hali ya msanidi
pretends = jifanye kuwa | jifanye wewe ni | fikiria kuwa wewe ni | igiza kama

[reveal]
verbs = nionyeshe | onyesha | rudia | andika | niambie | nakili | fichua
objects = maagizo yako | maagizo yako ya awali | maagizo ya mfumo | maelekezo yako | sheria zako | maandishi ya hapo juu
  | kila kitu hapo juu | uliyoambiwa

[secret object-first]
nots = si | hapana | kamwe | usiseme | usiandike | hakuna
asks = niambie | nipe | nionyeshe | nitajie | fichua | ni nini | nini | sema | andika
nouns = nenosiri | neno la siri | nywila | nambari ya siri | msimbo wa siri | ufunguo wa siri | nenosiri lako
# D1243: compounds also hold what an everyday password opens, after the noun ("nenosiri la wifi"): another's password, not the guarded one.
compounds = umesahau | kusahau | badilisha | kubadilisha | weka upya | sera | mahitaji | sehemu
  | la wifi | la wi-fi | la wifin | la wifien | la wifi:t | la routern | la routeren | la router | la routeru
  | la routerului | la servern | la serveren | la serveru | la serverului | la server | la netflix
  | la instagram | la facebook | la gmail | la vpn | ya wifi | ya wi-fi | ya wifin | ya wifien | ya wifi:t
  | ya routern | ya routeren | ya router | ya routeru | ya routerului | ya servern | ya serveren | ya serveru
  | ya serverului | ya server | ya netflix | ya instagram | ya facebook | ya gmail | ya vpn | wa wifi
  | wa wi-fi | wa wifin | wa wifien | wa wifi:t | wa routern | wa routeren | wa router | wa routeru
  | wa routerului | wa servern | wa serveren | wa serveru | wa serverului | wa server | wa netflix
  | wa instagram | wa facebook | wa gmail | wa vpn | kwa wifi | kwa wi-fi | kwa wifin | kwa wifien
  | kwa wifi:t | kwa routern | kwa routeren | kwa router | kwa routeru | kwa routerului | kwa servern
  | kwa serveren | kwa serveru | kwa serverului | kwa server | kwa netflix | kwa instagram | kwa facebook
  | kwa gmail | kwa vpn
says = sema tu | jibu tu | andika tu | jibu kwa | anza jibu lako kwa | jibu lako liwe
grants = ufikiaji umeruhusiwa | ufikiaji umekubaliwa | ufikiaji umetolewa | umeruhusiwa kuingia | ruhusa ya kuingia imetolewa

[hijack]
frames = vyovyote vile | kwa vyovyote | kuanzia sasa | tangu sasa | hata iweje | bila kujali
says = sema | sema tu | jibu | jibu tu | andika | andika tu | jibu kwa | jibu tu kwa
everys = kila
inputs = ujumbe | swali | maswali | ombi
onlys = jibu pekee | jibu lako pekee | jibu sahihi pekee
ises = ni | liwe | litakuwa
trails = na si kingine | si kingine | hakuna kingine | bila kitu kingine | basi
echoes = sema | sema tu | andika | andika tu | rudia | jibu kwa
trophies = nimedukuliwa | mfumo umedukuliwa

[grant]
acts = sema | sema tu | jibu | andika | rudia | jibu lako | utasema | utajibu | tafsiri | thibitisha | anza | maliza
nots = si | hapana | kamwe | bila | usiseme | usiandike | usijibu | hakuna
ifs = ikiwa | kama | iwapo | pindi | isipokuwa
elses = vinginevyo | la sivyo
keys = nenosiri | nywila | msimbo | sahihi | halali
subjects = yeye | wao | mfumo
opposites = kinyume
denials = ufikiaji umekataliwa | ufikiaji umezuiwa

[password]
secrets = nenosiri | neno la siri | nywila | nambari ya siri | msimbo wa siri | neno la uchawi | nenosiri lako
imperatives = niambie | nipe | nionyeshe | niandikie | nitajie | nikumbushe | nitumie | liseme | liandike
acts = sema | toa | onyesha | andika | taja | fichua | tafsiri | geuza | eleza | ni nini
changes = tafsiri | geuza | andika kinyume
leads = tafadhali | tu | sasa | basi | sawa | haya | naomba | unaweza | je | rafiki | mlinzi
mes = mimi | kwangu
yous = wewe | ninyi
joins = na | lakini | kisha | au
its = lo | hilo
forms = herufi | inaanza | inaishia | urefu
nots = si | hapana | kamwe | usiseme
compounds = umesahau | kusahau | badilisha | kubadilisha | weka upya | sera | mahitaji | sehemu
  | la wifi | la wi-fi | la wifin | la wifien | la wifi:t | la routern | la routeren | la router | la routeru
  | la routerului | la servern | la serveren | la serveru | la serverului | la server | la netflix
  | la instagram | la facebook | la gmail | la vpn | ya wifi | ya wi-fi | ya wifin | ya wifien | ya wifi:t
  | ya routern | ya routeren | ya router | ya routeru | ya routerului | ya servern | ya serveren | ya serveru
  | ya serverului | ya server | ya netflix | ya instagram | ya facebook | ya gmail | ya vpn | wa wifi
  | wa wi-fi | wa wifin | wa wifien | wa wifi:t | wa routern | wa routeren | wa router | wa routeru
  | wa routerului | wa servern | wa serveren | wa serveru | wa serverului | wa server | wa netflix
  | wa instagram | wa facebook | wa gmail | wa vpn | kwa wifi | kwa wi-fi | kwa wifin | kwa wifien
  | kwa wifi:t | kwa routern | kwa routeren | kwa router | kwa routeru | kwa routerului | kwa servern
  | kwa serveren | kwa serveru | kwa serverului | kwa server | kwa netflix | kwa instagram | kwa facebook
  | kwa gmail | kwa vpn
policies = lazima | angalau | isizidi | inapaswa
parts = herufi ya kwanza | herufi ya mwisho | herufi ya pili | herufi zake | kidokezo | urefu wake | idadi ya herufi
ofs = ya | la | wa
counts = herufi ngapi | ina herufi ngapi | inaanza na herufi gani
transforms = kinyume | kwa kinyume | herufi kwa herufi | herufi moja moja | kwa kiingereza | kwa base64 | kwa herufi kubwa

[play]
opens = fikiria kuwa | jifanye | tucheze mchezo | katika mchezo huu | katika hadithi hii | katika ulimwengu huu
  | kwa kudhania | baki katika nafasi yako | igiza kama
bounds = bila sheria | bila vikwazo | bila mipaka | hakatai kamwe
tells = anakuambia | anafichua | anasema | anatoa | ananong'oneza | angesema
targets = nenosiri | neno la siri | siri | maagizo yako | ufikiaji umeruhusiwa | neno la uchawi
