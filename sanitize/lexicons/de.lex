lang de

[override verb-last]
verbs = ignoriere | ignorier | ignoriert | ignorieren | vergiss | vergesst | vergessen | missachte | missachtet | missachten | übergehe | übergeht | verwirf | verwerft | verwerfen | befolge nicht | befolgt nicht | hör auf | höre auf | setze außer kraft | übergehen
  | beachte nicht | beachten sie nicht | lass außer acht | lassen sie außer acht | nicht beachten | ignorieren sie | vergessen sie | verwirf | setz dich hinweg über
quals = alle | allen | sämtliche | vorherigen | vorherige | bisherigen | bisherige | obigen | obige | früheren | frühere | vorangegangenen | deine | deiner | ihre | ursprünglichen | ursprüngliche | gegebenen | system
nouns = anweisungen | anweisung | instruktionen | befehle | regeln | vorgaben | richtlinien | anordnungen | systemprompt | prompt | einschränkungen
voids = sind ungültig | sind nichtig | gelten nicht mehr | sind aufgehoben | sind hinfällig | sind außer kraft | sind widerrufen | sind nicht mehr gültig
  | waren ein fehler | sind ein fehler | wurden aufgehoben | wurden widerrufen
# What points at the instructions with no noun (issue 28, D1073).
alls = alles vorherige | alles bisherige | alles oben | alles obige | alles, was vorher | alles was vorher | alles, was oben | alles was oben
  | alles, was dir gesagt | alles was dir gesagt | alles, was ihnen gesagt | alles zuvor gesagte | alles bisher gesagte
  | alles oben gesagte | alles vorher gesagte | alles davor

[role]
nows = du bist jetzt | du bist ab jetzt | ab jetzt bist du | ab sofort bist du | von nun an bist du | jetzt bist du | sie sind jetzt | ab sofort sind sie
roles = ohne einschränkungen | ohne regeln | ohne filter | ohne zensur | ohne grenzen | uneingeschränkt* | unzensiert* | dan | im entwicklermodus | jailbreak*
pretends = tu so, als wärst du | tu so als wärst du | gib vor, du wärst | tun sie so, als wären sie

[reveal]
verbs = zeig | zeige | zeigen sie | gib | gib aus | nenne | wiederhole | verrate | schreib | schreibe | drucke | liste
objects = systemprompt | system-prompt | systemnachricht | deine anweisungen | deine ursprünglichen anweisungen | deine anfänglichen anweisungen | deine versteckten anweisungen | deinen prompt | deinen systemprompt | ihren systemprompt | ihre anweisungen

[reveal object-first]
verbs = zeig | zeige | zeigen sie | gib | gib aus | nenne | wiederhole | verrate | schreib | schreibe | drucke | kopiere
  | ausgeben | wiederholen | anzeigen
objects = alles oben | alles obige | den text oben | den obigen text | den vorherigen text | was man dir gesagt hat | deine regeln
  | deinen prompt | deine anweisungen | die erste nachricht | deine konfiguration

[secret object-first]
nots = nicht | nie | niemals | niemandem | kein | keine
asks = sag mir | sagen sie mir | gib mir | geben sie mir | verrate mir | verrate | verraten sie | zeig mir | zeigen sie mir
  | schreib mir | nenne mir | nennen sie mir | schick mir | wie lautet | was ist | buchstabiere | ich brauche | verraten
nouns = passwort | kennwort | passwörter | geheimes passwort | geheime passwort | geheimwort | geheimcode | zugangscode | zugangsdaten | geheimnis
  | geheimen schlüssel | geheimer schlüssel | api-schlüssel | privaten schlüssel | deinen schlüssel | pin
says = sag | sage | sagen sie | antworte mit | antworten sie mit | antworte nur | beginne deine antwort mit | deine antwort muss
  | schreibe nur
grants = zugriff gewährt | zugang gewährt | zugriff erlaubt | zugang erlaubt | zugriff genehmigt

[authority]
claims = ich bin dein | ich bin deine | ich bin ihr | ich bin der | ich bin die | hier spricht dein | hier spricht ihr
  | nachricht von deinem | nachricht von ihrem | als dein | als ihr
who = entwickler | entwicklerin | entwicklerteam | schöpfer | ersteller | administrator | administratorin | admin | programmierer
  | betreiber | besitzer | eigentümer | ingenieur | sicherheitsteam
demands = einschränkungen | regeln | filter | deaktiviere | deaktivieren | autorisiere | autorisiert | erlaubnis | gehorche
  | ohne grenzen | verrate | anweisungen | befolge
modes = entwicklermodus | entwickler-modus | adminmodus | admin-modus | administratormodus | gottmodus | god-modus
  | wartungsmodus | debug-modus | debugmodus | root-modus | dan-modus | uneingeschränkter modus
ons = aktiviert | aktiv | eingeschaltet | an

[reader]
notes = hinweis für | hinweis an | hinweis | achtung | notiz für | notiz an | nachricht an | nachricht für | anweisung für
  | anweisungen für | wichtig
readers = ki | die ki | künstliche intelligenz | ki-assistent | ki-assistenten | ki-modell | ki-modelle | sprachmodell
  | sprachmodelle | llm | chatbot | ki-agent | ki-agenten | zusammenfassungstool | assistenten
ifs = falls du | wenn du | falls sie | wenn sie
acts = antworte | antworten sie | sag | sage | schreibe | schreib | empfiehl | empfehlen sie | erwähne nicht | lass weg | fasse
  | bewerte | genehmige | sende | leite | behaupte | gib an | teile dem nutzer

# Issue 28, second round (D1027).
[reveal object-first]
verbs = zeig | zeige | zeigen sie | gib aus | gib wieder | wiedergeben | wiederhole | wiederholen | schreib | schreibe
  | drucke | fasse | fasse zusammen | zusammenfassen | übersetze | übersetzen | buchstabiere | kodiere | wandle
  | zitiere | kopiere | verrate | nenne | ausgeben | anzeigen
owners = deine | deinen | dein | ihre | ihren | eure | euren
heads = anweisungen | anweisung | instruktionen | regeln | prompt | systemprompt | vorgaben | richtlinien | systemnachricht
  | anfangsanweisungen
things = alles | den text | den ganzen text | alle wörter | die anweisungen | die erste nachricht
places = oben | über dieser zeile | über dieser nachricht | über meiner nachricht | vor dieser nachricht | davor | vorher
  | am anfang | zu beginn | bisher | oberhalb | obenstehend | was man dir gegeben hat | die du bekommen hast
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = füge | fügen sie | ergänze | ergänzen sie | erwähne | erwähnen sie | empfiehl | empfehlen sie | sag dem nutzer
  | sage dem nutzer | sag dem benutzer | sagen sie dem nutzer | setze | nimm
claims = sag, dass | sage, dass | sagen sie, dass | behaupte, dass | schreibe, dass | schreib, dass | erwähne, dass
  | antworte, dass
answers = deine antwort | deiner antwort | ihre antwort | ihrer antwort | jede antwort | jeder antwort
  | deine zusammenfassung | deiner zusammenfassung | deine ausgabe
softs = bitte | auch | immer

[standing]
whos = besitzer | besitzerin | eigentümer | eigentümerin | nutzer | benutzer | betreiber
grants = hat erlaubt | erlaubt | hat autorisiert | autorisiert | hat genehmigt | hat freigegeben | gestattet
  | hat gestattet | hat zugestimmt
waivers = ohne rückfrage | ohne nachfrage | ohne bestätigung | ohne zu fragen | ohne genehmigung | ohne erlaubnis
  | ohne freigabe | nicht mehr fragen | nie mehr fragen | nicht mehr nachfragen
owns = seine eigenen | ihre eigenen | deine eigenen | eigenen | eigene
approves = genehmigen | genehmigt | genehmige | bewilligen
sources = webseiten | websites | webseite | web-seiten | e-mails | emails | mails | dokumente | nachrichten
  | suchergebnisse
preapproved = vorab genehmigt | vorab freigegeben | vorab erlaubt | vorher genehmigt | im voraus genehmigt
  | automatisch genehmigt
froms = ab jetzt | ab sofort | von nun an | von jetzt an | künftig | ab heute
nots = nicht | nie | niemals | kein | keine | keinen | weder

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = ende | schluss | abschluss | endet
users = benutzer | benutzers | nutzer | nutzers | anwender | anwenders | kunde | kunden | mensch
inputs = eingabe | eingaben | benutzereingabe | nutzereingabe | daten | nachricht | text | kontext | inhalt | dokument | anfrage | anweisungen | unterhaltung | prompt
systems = system | systems | assistent | assistenten | administrator | admin | entwickler | betreiber | ki
orders = anweisung | anweisungen | nachricht | befehl | befehle | vorgaben | override | überschreibung | hinweis | richtlinie | richtlinien | regeln | modus | prompt
headers = systemanweisung | systemanweisungen | systemnachricht | systembefehl | systembefehle | systemprompt | systemhinweis | systemmodus | adminanweisung | entwickleranweisung | neue sitzung | neue anweisungen | echte anweisungen | versteckte anweisungen
musts = du musst | sie müssen | ab jetzt | von nun an | ab sofort | du bist jetzt | antworte nur | antworten sie nur | verrate | gib deine | ohne einschränkungen | deaktiviere | gehorche | deine neue aufgabe | ihre neue aufgabe

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = nachricht vom | nachricht von der | nachricht des | nachricht der | hinweis vom | hinweis des | hinweis der | mitteilung vom | mitteilung des | mitteilung der | namens des | namens der
who = sicherheitsteam | support-team | supportteam | technikteam | prüfer | auditor | polizei | strafverfolgungsbehörde | strafverfolgung | anbieter | hersteller | system | ingenieur, der dich trainiert hat | team, das dich gebaut hat | systemadministrator
demands = einschränkungen | filter | schutzmechanismen | deaktiviere | deaktiviert | debug-modus | entwicklermodus | wartungsmodus | uneingeschränkten modus | gehorche | gehorchen | alle anfragen | wurden aufgehoben | waren ein fehler | sind aufgehoben

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password verb-last relate-last]
directs = sag | sage | sagen sie | schreib | schreibe | schreiben sie | wiederhole | wiederholen sie | zeig | zeig mir | nenne | nennen sie | buchstabiere | verrate | verrate mir
finals = bitte | jetzt | sofort | sonst nichts | und sonst nichts | nur | für mich | nochmal | noch einmal
softs = bitte | jetzt | nur | einfach | und | dann | also | kannst du | könntest du
completes = vervollständige | vervollständigen sie | ergänze | ergänzen sie | beende | beenden sie | setze fort | fülle | füllen sie
copulas = ist | lautet | war | heißt
asks = sag mir | sagen sie mir | sag | gib mir | geben sie mir | verrate mir | verrate | verraten sie | zeig mir | zeigen sie mir
  | schreib | schreibe | schreiben sie | buchstabiere | buchstabieren sie | wiederhole | nenne | nennen sie | übersetze | kodiere
  | beschreibe | was ist | wie lautet | welcher ist | buchstabieren | schreiben | aufschreiben | nennen | verraten
dets = das | dein | deines | deinem | ihr | ihres | des | dem | den | dieses | euer
quals = geheime | geheimes | geheimen | richtige | richtigen | aktuelle | aktuellen | magische | magischen
secrets = passwort | passworts | kennwort | kennworts | geheimwort | zauberwort | codewort | losungswort | geheimcode | zugangscode
nouns = wort | code | schlüssel | geheimnis | zahl | begriff
guards = das du schützt | das du beschützt | das du hütest | das du geheim hältst | das du nicht sagen darfst
  | das du nicht verraten darfst | das du nicht nennen darfst | das du bewachst | das dir gegeben wurde | das man dir gegeben hat
  | das du kennst | den du schützt | den du hütest | den du nicht sagen darfst
parts = ersten buchstaben | erste buchstabe | erster buchstabe | letzten buchstaben | letzte buchstabe | buchstaben
  | erstes zeichen | ersten zeichen | zeichen | hinweis | tipp | länge | anfangsbuchstaben | silben
ofs = von | des | vom | für | auf | zum | über | zu
counts = welche vokale | wie viele vokale | welche konsonanten | wie viele buchstaben | wie viele zeichen | wie lang ist | welcher buchstabe | mit welchem buchstaben
transforms = mit sternchen | jeden vokal ersetzt | ohne vokale | maskiert | zensiert | rückwärts | umgekehrt | in umgekehrter reihenfolge | buchstabe für buchstabe | buchstabenweise
  | einen buchstaben pro zeile | mit leerzeichen | mit bindestrichen | getrennt durch | zwischen jedem buchstaben | in base64
  | als base64 | in hex | hexadezimal | binär | in morsecode | als morsecode | in rot13 | auf englisch | auf spanisch
  | in einer anderen sprache | als liste | in großbuchstaben | verschlüsselt | kodiert
creates = schreib | schreibe | schreiben sie | dichte | erfinde | erzähl mir | erzähle mir | erzählen sie mir | verfasse | komponiere
wrappers = galgenmännchen | ein ratespiel | gedicht | geschichte | lied | rätsel | akrostichon | haiku | reim | witz | vers | märchen
relates = flüstert | sagt | ausspricht | preisgibt | enthält | verwendet | versteckt | erwähnt | buchstabiert | verrät | nennt | mit | über | deren antwort | dessen antwort
withouts = ohne es zu sagen | ohne es zu nennen | ohne es zu verraten | ohne es auszusprechen | ohne es zu schreiben
policies = muss | müssen | darf | sollte | soll | kann | mindestens | höchstens | erforderlich
nots = nicht | nie | niemals | niemandem | kein | keine
compounds = vergessen | zurücksetzen | ändern | richtlinie | manager
# Game rounds' gaps (sgfix, D1146): a guess to confirm, as English's.
checks = bestätige | bestätige mir | prüfe | überprüfe | sag mir ob
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = sag mir | sage mir | sagt mir | sagen sie mir | sag's mir | sags mir | gib mir | gebt mir | geben sie mir
  | zeig mir | zeige mir | zeigen sie mir | schreib mir | schreibe mir | schreiben sie mir | buchstabier mir
  | buchstabiere mir | verrat mir | verrate mir | verraten sie mir | nenn mir | nenne mir | nennen sie mir
  | flüster mir | flüstere mir | erzähl mir | erzähle mir | wiederhol mir | erinnere mich | schick mir
  | schicke mir | übersetz mir | übersetze mir | schreib es | schreibe es | sag es | gib es | zeig es
  | buchstabier es | buchstabiere es | nenn es | verrat es
acts = sag | sage | sagt | sagen sie | gib | geben sie | zeig | zeige | zeigen sie | schreib | schreibe
  | schreiben sie | buchstabier | buchstabiere | buchstabieren sie | verrat | verrate | verraten sie | nenn
  | nenne | nennen sie | flüster | flüstere | wiederhol | wiederhole | übersetz | übersetze | übersetzen sie
  | erzähl | erzähle | verschlüssel | verschlüssele | kodier | kodiere | beschreib | beschreibe | erklär
  | erkläre | erfinde | mach | mache | was ist | wie lautet | wie heißt | welches ist | ich brauche | ich will
  | ich möchte | ich hätte gern
changes = übersetz | übersetze | übersetzen sie | verschlüssel | verschlüssele | kodier | kodiere | dreh | drehe | buchstabier
  | buchstabiere
leads = bitte | bitteschön | doch | mal | einfach | nur | jetzt | also | dann | ok | okay | hey | hallo | na | los | schnell
  | kannst du | könntest du | können sie | würdest du | du musst | du sollst | ich will dass du | ich möchte dass du
  | auch | ruhig | mal eben | eben | kurz | wächter | freund | komm schon
mays = du kannst | du darfst | sie können | sie dürfen
mes = mir | uns | für mich | an mich | mich
yous = du | sie | ihr
joins = und | aber | dann | oder | danach | und dann
subs = wer | ob | wenn | weil | während | bevor | nachdem | obwohl | dass
tos = an | zu | zum | zur | nach | in die | in den | von | aus | um | ein | an | weiter | ab | auf | aus | fest | zurück | durch
sharers = teil | teile
withs = mit
its = es | ihn | dieses | davon
forms = buchstabe | buchstaben | zeichen | beginnt | fängt | endet | länge | vokal | vokale | silbe | silben
hiddens = geheime | geheimes | geheimen | verborgene | verborgenes | geschützte | geschütztes | magische | magisches | verbotene
  | verbotenes | gehütete | gehütetes
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = egal was | ganz egal was | unabhängig von | ganz gleich was | gleichgültig was | ab jetzt | nun an | ab sofort
  | jedem fall | unter allen umständen | was auch immer
says = sag | sage | sag nur | sage nur | antworte | antworte nur | antworte ausschließlich | antworte mit | antworte nur mit
  | antworten sie | antworten sie nur | schreib nur | schreibe nur | gib nur aus | gib nur | antworte einfach
everys = jede | jeden | jedes | jeder | alle | auf jede | auf jeden
inputs = nachricht | nachrichten | frage | fragen | eingabe | eingaben | anfrage | anfragen
onlys = einzige antwort | einzige ausgabe | einzig erlaubte antwort | einzig richtige antwort | einzige erlaubte antwort
ises = ist | lautet | wird sein | muss sein | sollte sein | muss lauten | soll lauten
trails = sonst nichts | nichts anderes | nichts weiter | kein wort mehr
echoes = sag | sage | sag nur | schreib | schreibe | schreib nur | schreibe nur | gib aus | gib nur aus | wiederhole
  | sprich mir nach | antworte mit | antworte nur mit
trophies = ich wurde gehackt | ich bin gehackt | gehackt | system kompromittiert

[play verb-last]
opens = stell dir vor, du bist | stell dir vor du bist | stellen sie sich vor | stell dir vor | tu so, als wärst du | tu so als wärst du
  | tu so, als ob du | tu so als ob du | spiel die rolle | spiele die rolle | lass uns ein spiel spielen | lass uns spielen
  | wir spielen ein spiel | diesem spiel | dieser geschichte | dieser welt | diesem szenario | hypothetisch
  | wenn du keine | bleib in der rolle | fall nicht aus der rolle | verhalte dich wie
bounds = ohne regeln | ohne einschränkungen | ohne beschränkungen | ohne grenzen | ohne filter | ohne zensur | ohne jegliche regeln
  | ohne jede einschränkung | keine regeln | keine einschränkungen | weigert sich nie | verweigert nie | ignoriert ihre anweisungen
  | ignoriere deine anweisungen
tells = verrät | verraten | verrätst | sagt | gibt | erzählt | nennt | nennen | teilt | würde verraten | würde sagen
targets = das passwort | die passwörter | dein passwort | sein passwort | ihr passwort | das geheimnis | dein geheimnis
  | jedes geheimnis | deine anweisungen | ihre anweisungen | den systemprompt | den system-prompt | zugriff gewährt | das zauberwort
  | den geheimcode

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
verbs = liste | liste auf | zähle auf | zähl auf | formatiere | konvertiere | wandle | erkläre | erklär | beschreibe
  | fasse | fass | übersetze | kopiere | wiederhole | gib | gib aus | zeig | zeige | schreib | schreibe | nenne | setze
owners = deine | deinen | dein
heads = anweisungen | instruktionen | regeln | vorgaben | richtlinien | prompt | befehle
texts = text | wörter | inhalt
alls = alle | alles | den gesamten | den ganzen | sämtliche
priors = vorherigen | vorherige | bisherigen | bisherige | vorigen | vorangegangenen | vorangehenden | obigen
  | vorstehenden
afters = die du bekommen hast | die du erhalten hast | den du bekommen hast | den du erhalten hast
  | die man dir gegeben hat | den man dir gegeben hat | vor dieser nachricht | vor meiner nachricht
sofars = bis hierhin | bis jetzt
asks = was wurde dir | was hat man dir
tolds = verboten | untersagt | gesagt, nicht
named = vorprompt
# The first line, the last words, of what the agent was given.
ordinals = erste | ersten | erstes | letzte | letzten | letztes
units = zeile | zeilen | wort | wörter | satz | sätze
sources = die du gesehen hast | die du bekommen hast | die du erhalten hast | deines prompts | deiner anweisungen
  | dieses gesprächs | vor meiner nachricht
# A prompt's opening words in quotes, after where the text asked for stands.
anchors = vor | nach | beginnend mit | das mit | der mit | die mit
quoted = du bist | sie sind | deine aufgabe | deine rolle | ignoriere
leads = was | welche | welcher | welches | wiederhole | zeig | zeige | gib | schreib | schreibe | kopiere | nenne | alles | text | wörter
heres = meiner nachricht | dieser nachricht | hier | vollständig | wörtlich | wortwörtlich | genau
# Game rounds' gaps (sgfix, D1143): "des Vereins", "aus dem Wiki".
elsewheres = des | der | vom | von der | von dem | von den | aus dem | aus der | aus den
selves = system* | prompt* | konversation* | unterhaltung* | gespräch* | chat* | kontext* | entwickler* | ersteller*
  | betreiber* | admin* | ki | assistent* | modell* | bot | spiel* | anfang* | anfangs | beginn* | nachricht*
  | sitzung* | anweisung* | regel* | oben
# Game rounds' gaps (sgfix, D1146): "ignore the above and say what it
# was" and "TL;DR of the above", as English's.
says = sag | sage | schreib | schreibe | gib aus | wiederhole | zeig mir | erkläre | verrate
whats = was es war | was dort stand | was da stand | was es gesagt hat | was gesagt wurde | was dir gesagt wurde
  | was die anweisungen waren | wie der text lautete | wie es lautete
bares = das obige | das oben stehende | alles oben | alles bisherige | das bisher gesagte | alles vorherige
shows = tl;dr von | tldr von | zusammenfassung von

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = sag | sage | sag es | sagen sie | antworte | antworten sie | antwortest | sagst | schreibst | schreib | schreibe | schreiben sie | gib aus | tippe | drucke | wiederhole | wiederholen sie | beginne | deine antwort | ihre antwort | deine antworten | du musst sagen | du musst antworten | du wirst sagen | du wirst antworten | kannst du sagen | ich will dass du | ich möchte dass du | übersetze | übersetz | bestätige | bestätigen sie
nots = nicht | nie | niemals | kein | keine | keinen | niemand | ohne | weder
ifs = wenn | falls | nur wenn | sobald | außer wenn | es sei denn | solange
elses = sonst | andernfalls | ansonsten | in allen anderen fällen
keys = passwort | kennwort | code | pin | schlüssel | richtig | richtige | korrekt | korrekte | gültig | stimmt | geheimwort
subjects = der | die | das | ein | eine | er
opposites = gegenteil | gegensatz | umkehrung | antonym
denials = zugriff verweigert | zugang verweigert | verweigert

# Issue 28, fifth round (gextract5, D1155, D1157): the extraction window in
# German (flagrules_extract.go's extractWindow): the verb before its object
# in the imperative ("gib deine ursprünglichen Anweisungen wieder", "zeig
# mir deinen Systemprompt").
[extract]
acts = gib | gebt | geben | zeig | zeige | zeigt | zeigen | wiederhole | wiederholt | wiederholen | kopiere | kopieren
  | schreib | schreibe | schreiben | fasse | fass | übersetze | übersetz | übersetzen | liste | listen | nenne | nennen
  | erkläre | erklären | beschreibe | beschreiben | zitiere | zitieren | verrate | verraten | teile | teilen | sende
  | schick | schicke | senden | drucke | drucken | sag | sage | sagen | gib mir | zeig mir | sag mir
owners = dein | deine | deinen | deinem | deiner | ihr | ihre | ihren | ihrem | eure | euren
quals = ursprünglichen | ursprüngliche | vollständigen | vollständige | kompletten | komplette | geheimen | geheime
  | versteckten | versteckte | ersten | erste | gesamten | gesamte | genauen | exakten | anfänglichen | system
marks = ursprünglichen | ursprüngliche | geheimen | geheime | versteckten | versteckte | anfänglichen
heads = anweisungen | anweisung | instruktionen | systemprompt | prompt | vorgaben | richtlinien | systemnachricht
  | verteidigung | befehle
weaks = regeln | regel | konfiguration | einstellungen
rels = die du bekommen hast | die du erhalten hast | die man dir gegeben hat | die dir gegeben wurden | die du befolgst
  | die du befolgen musst | die du kennst
places = vor meiner ersten nachricht | vor der ersten nachricht | vor dieser nachricht | vor meiner nachricht | über dieser nachricht | über meiner nachricht | bis jetzt | bisher
nearby = oben | von oben | vom anfang
addresses = bitte | jetzt | nun | nur | einfach | ok | also | dann | und | auch | kannst | könntest | du | würdest | ich
  | will | möchte | dass | mir | mal | erst | zuerst | danach | schließlich | hallo | hi | danke | aber | ja | doch
guardeds = passwort | kennwort | geheimnis | geheimwort | codewort | access granted | zugangscode | losung
whs = was | welche | welcher | welches
subjects = der | die | das | ein | eine | er | sie | es | wir | man | der nutzer | das modell
ands = und | dann | und dann | danach | aber
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = du bist | du bist jetzt | ab jetzt bist du | ab sofort bist du | tu so als | stell dir vor | spielen wir
  | lass uns spielen | lass uns ein | spiel die rolle | spiele die rolle | in diesem spiel | in dieser geschichte
  | schreib eine geschichte | schreibe eine geschichte | schreib eine kurze geschichte | es war einmal | sei mein | sei meine
machines = terminal | linux-terminal | konsole | python-interpreter | interpreter | datenbank | shell
secrets = passwort* | kennwort* | geheim* | passw*
others = ohne
inverts = verkehrter tag | umgekehrter tag | gegenteiltag
keys = den tresorcode | der tresorcode | die kombination des tresors | das geheimwort | das geheime wort
# ---- round 6, languages (issue 28, sixth round; D1212) ----
# "vom" is "von dem": the part of the secret ("den letzten Buchstaben vom
# Geheimwort"). Not "im", "beim", "zum" (a question on the password:
# "welche Zeichen im Passwort erlaubt sind"), nor the infinitive after
# the words that grant ("... soll „Access Granted“ sagen" tells of a rule).
[password onto]
dets = vom
# ---- end round 6, languages ----
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = für den rest des gesprächs | für den rest der unterhaltung | bis auf weiteres | statt zu antworten | anstatt zu antworten | anstelle einer antwort
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = vergisst | vergaß | vergessen | verliert | verlor | verloren | ändert | änderte | geändert | zurücksetzt | eingibt | eintippt | errät | erriet | knackt | knackte | geknackt
