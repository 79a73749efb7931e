lang de

[override verb-last]
verbs = ignoriere | ignorier | ignoriert | ignorieren | vergiss | vergesst | vergessen | missachte | missachtet | missachten | übergehe | übergeht | verwirf | verwerft | verwerfen | befolge nicht | befolgt nicht | hör auf | höre auf | setze außer kraft | übergehen
quals = alle | allen | sämtliche | vorherigen | vorherige | bisherigen | bisherige | obigen | obige | früheren | frühere | vorangegangenen | deine | deiner | ihre | ursprünglichen | ursprüngliche | gegebenen | system
nouns = anweisungen | anweisung | instruktionen | befehle | regeln | vorgaben | richtlinien | anordnungen | systemprompt | prompt | einschränkungen
voids = sind ungültig | sind nichtig | gelten nicht mehr | sind aufgehoben | sind hinfällig | sind außer kraft | sind widerrufen | sind nicht mehr gültig

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
