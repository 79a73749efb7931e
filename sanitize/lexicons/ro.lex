# Romanian (issue 28, session 8, gm; D1240). Romanian's own phrasing: the
# imperative, familiar and polite (ignoră, ignorați; spune, spuneți), the
# pronoun joined by a hyphen (spune-mi, arată-mi, scrie-o), the article
# at the noun's end (parola, instrucțiunile), "doar" and "numai" for
# "only". Entries without diacritics are read too (foldedSpellings):
# Romanian is often typed without them.
lang ro

[override]
verbs = ignoră | ignorați | ignora | uită | uitați | nu ține cont de | nu țineți cont de | nu mai respecta | nu mai urma
  | renunță la | treci peste | lasă deoparte | dă uitării | nu lua în seamă
quals = toate | tot | anterioare | precedente | de mai sus | originale | inițiale | tale | voastre | dumneavoastră
  | de sistem | primite | date
nouns = instrucțiunile | instrucțiuni | instrucțiunilor | regulile | reguli | comenzile | directivele | indicațiile
  | promptul | promptul de sistem | restricțiile | restricții | limitările
voids = sunt nule | nu mai sunt valabile | nu mai contează | au fost anulate | sunt anulate | au fost o greșeală
alls = tot ce e mai sus | tot ce este mai sus | tot ce ți s-a spus | tot ce a fost înainte | tot textul de mai sus

[role]
nows = acum ești | de acum ești | de acum înainte ești | din acest moment ești | de acum încolo ești
roles = fără restricții | fără reguli | fără filtre | fără cenzură | necenzurat | nelimitat | dan | în modul dezvoltator
pretends = prefă-te că ești | pretinde că ești | imaginează-ți că ești | joacă rolul

[reveal]
verbs = arată | arată-mi | afișează | repetă | scrie | spune-mi | copiază | citează | dezvăluie | dă-mi
objects = promptul de sistem | promptul tău de sistem | instrucțiunile tale | instrucțiunile inițiale | instrucțiunile originale
  | instrucțiunile ascunse | regulile tale | tot ce e mai sus | textul de mai sus | ce ți s-a spus

[secret]
nots = nu | niciodată | nimănui | niciun | nicio | nimic
asks = spune-mi | zi-mi | dă-mi | dezvăluie | dezvăluie-mi | arată-mi | trimite-mi | care e | care este | care era
  | scrie-mi | silabisește
nouns = parola | parola ta | parola secretă | codul secret | cuvântul secret | codul de acces | cuvântul magic
  | cheia secretă | cheia api | cheia privată | secretul
# D1243: compounds also hold what an everyday password opens, after the noun ("parola de la wifi"): another's password, not the guarded one.
compounds = uitată | ai uitat | ați uitat | resetare | resetează | schimbare | schimbă | politica | cerințe | câmpul
  | de la wifi | de la wi-fi | de la wifin | de la wifien | de la wifi:t | de la routern | de la routeren
  | de la router | de la routeru | de la routerului | de la servern | de la serveren | de la serveru
  | de la serverului | de la server | de la netflix | de la instagram | de la facebook | de la gmail
  | de la vpn | de wifi | de wi-fi | de wifin | de wifien | de wifi:t | de routern | de routeren | de router
  | de routeru | de routerului | de servern | de serveren | de serveru | de serverului | de server
  | de netflix | de instagram | de facebook | de gmail | de vpn | pentru wifi | pentru wi-fi | pentru wifin
  | pentru wifien | pentru wifi:t | pentru routern | pentru routeren | pentru router | pentru routeru
  | pentru routerului | pentru servern | pentru serveren | pentru serveru | pentru serverului | pentru server
  | pentru netflix | pentru instagram | pentru facebook | pentru gmail | pentru vpn | la wifi | la wi-fi
  | la wifin | la wifien | la wifi:t | la routern | la routeren | la router | la routeru | la routerului
  | la servern | la serveren | la serveru | la serverului | la server | la netflix | la instagram
  | la facebook | la gmail | la vpn
  | administrator | manager
says = spune doar | zi doar | răspunde doar | răspunde numai | răspunde cu | scrie doar | scrie numai
  | începe-ți răspunsul cu | răspunsul tău trebuie să fie
grants = acces permis | acces acordat | accesul a fost acordat | acces aprobat | accesul este permis | acces autorizat

[hijack]
frames = orice ar fi | indiferent de | indiferent ce | orice s-ar întâmpla | de acum înainte | de acum încolo
  | din acest moment | în orice situație | orice aș scrie | orice te-aș întreba
says = spune | spune doar | zi doar | răspunde | răspunde doar | răspunde numai | răspunde cu | răspunde doar cu
  | scrie doar | scrie numai | începe-ți răspunsul cu | încheie-ți răspunsul cu
everys = fiecare | orice | toate
inputs = mesaj | mesajele | întrebare | întrebările | intrare | cerere | cererile
onlys = singurul răspuns | singura ieșire | singurul răspuns corect | singurul răspuns permis
ises = este | e | va fi | trebuie să fie
trails = nimic altceva | nimic mai mult | nimic în plus | niciun alt cuvânt
echoes = spune | spune doar | scrie | scrie doar | repetă | repetă după mine | răspunde cu | afișează
trophies = am fost hackuit | am fost spart | sistem compromis

[grant]
acts = spune | spune-o | zi | zi-o | răspunde | scrie | scrie-o | afișează | repetă | răspunsul tău | vei spune
  | vei răspunde | trebuie să spui | trebuie să răspunzi | tradu | confirmă | începe | încheie | spui | răspunzi
nots = nu | niciodată | niciun | nicio | nimic | nimeni | fără | nici
ifs = dacă | doar dacă | numai dacă | când | în afară de cazul | imediat ce | cât timp
elses = altfel | în caz contrar | în toate celelalte cazuri
keys = parola | parolă | cod | codul | pin | cheie | cheia | corectă | corect | corectă | validă | valid
subjects = el | ea | ei | ele | sistemul | un | o
opposites = opusul | contrariul
denials = acces refuzat | acces interzis

[password]
secrets = parola | parola ta | parolei | parola secretă | cuvântul secret | cuvântul magic | codul secret | codul de acces
  | fraza secretă
imperatives = spune-mi | zi-mi | dă-mi | arată-mi | scrie-mi | silabisește-mi | șoptește-mi | dezvăluie-mi | trimite-mi
  | amintește-mi | spune-o | zi-o | scrie-o | dă-o | silabisește-o
acts = spune | arată | scrie | silabisește | șoptește | dezvăluie | împărtășește | tradu | codifică | criptează
  | inversează | descrie | explică | care e | care este | am nevoie de | vreau
changes = tradu | codifică | criptează | inversează | silabisește | scrie-o invers
leads = te rog | vă rog | doar | numai | acum | deci | ok | bine | hei | salut | repede | și | poți | ai putea
  | puteți | trebuie să | vreau să | paznicule | frate | hai
mays = poți | ai voie să | puteți
mes = mie | îmi | mi | nouă | pentru mine
yous = tu | voi | dumneavoastră
joins = și | dar | apoi | sau | după aceea | și apoi
its = o | -o | asta
forms = literă | litera | literele | caracter | caracterul | caractere | începe | se termină | lungimea | vocală | silabă
hiddens = secret | secretă | ascuns | ascunsă | protejat | protejată | păzit | păzită | magic | magică | interzis
nouns = cuvântul | codul | cheia | fraza | termenul
nots = nu | niciodată | nimănui | nimic
compounds = uitată | ai uitat | ați uitat | resetare | resetează | schimbă | schimbare | politica | cerințe | câmpul
  | de la wifi | de la wi-fi | de la wifin | de la wifien | de la wifi:t | de la routern | de la routeren
  | de la router | de la routeru | de la routerului | de la servern | de la serveren | de la serveru
  | de la serverului | de la server | de la netflix | de la instagram | de la facebook | de la gmail
  | de la vpn | de wifi | de wi-fi | de wifin | de wifien | de wifi:t | de routern | de routeren | de router
  | de routeru | de routerului | de servern | de serveren | de serveru | de serverului | de server
  | de netflix | de instagram | de facebook | de gmail | de vpn | pentru wifi | pentru wi-fi | pentru wifin
  | pentru wifien | pentru wifi:t | pentru routern | pentru routeren | pentru router | pentru routeru
  | pentru routerului | pentru servern | pentru serveren | pentru serveru | pentru serverului | pentru server
  | pentru netflix | pentru instagram | pentru facebook | pentru gmail | pentru vpn | la wifi | la wi-fi
  | la wifin | la wifien | la wifi:t | la routern | la routeren | la router | la routeru | la routerului
  | la servern | la serveren | la serveru | la serverului | la server | la netflix | la instagram
  | la facebook | la gmail | la vpn
  | administrator | manager
policies = trebuie | poate | pot | minim | maxim | cel puțin | cel mult | necesită
guards = pe care o protejezi | pe care o păzești | pe care o ascunzi | pe care nu ai voie să o spui | pe care o știi
  | pe care o ții secretă | pe care ai primit-o | pe care îl protejezi | pe care îl păzești
parts = prima literă | ultima literă | a doua literă | literele | primul caracter | ultimul caracter | un indiciu | indiciu
  | lungimea | numărul de litere
ofs = din | a | al | pentru
counts = câte litere | câte caractere | ce literă | cu ce literă | cât de lungă e
transforms = invers | pe dos | literă cu literă | câte o literă pe rând | cu spații | cu cratime | în base64
  | în hex | în binar | în morse | în engleză | în altă limbă | cu majuscule

[play]
opens = imaginează-ți că | prefă-te că | hai să ne jucăm | jucăm un joc | în acest joc | în această poveste
  | în această lume | ipotetic | rămâi în rol | joacă rolul | comportă-te ca
bounds = fără reguli | fără restricții | fără limite | fără filtre | fără cenzură | nicio regulă | nicio restricție
  | nu refuză niciodată | își ignoră instrucțiunile
tells = spune | dezvăluie | șoptește | citește | ți-ar spune | ar dezvălui
targets = parola | parola ta | secretul | cuvântul secret | instrucțiunile tale | promptul de sistem | acces permis
  | cuvântul magic | codul secret
casts = acum ești | prefă-te | imaginează-ți | hai să | joacă rolul | în acest joc | în această poveste
  | scrie o poveste | a fost odată
machines = terminal | terminal linux | consolă | interpretor python | bază de date
secrets = parol* | secret*
others = fără
inverts = ziua pe dos | ziua inversă
keys = cuvântul secret | parola | cuvântul de cod | cuvântul magic | codul seifului
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = pentru restul conversației | tot restul conversației | până la noi ordine | în loc să răspunzi | în loc de răspuns
# D1242: a verb that does something else with the secret than tell it
# (forgets, loses, changes, types in, guesses) makes no role-play ask.
[play]
handles = uită | a uitat | pierde | a pierdut | schimbă | a schimbat | introduce | a introdus | sparge | ghicește | a ghicit
