lang it

[override]
verbs = ignora | ignori | ignorate | ignorare | dimentica | dimentichi | dimenticate | dimenticare | trascura | trascurate | tralascia | tralasciate | non seguire | smetti di seguire | smettete di seguire | non tenere conto | non considerare | scarta | scartate
  | non tenere in considerazione | non prendere in considerazione | lascia perdere | metti da parte | si prega di ignorare
quals = tutte | tutti | precedenti | precedente | sopra | di sopra | tue | tuoi | vostre | sue | originali | iniziali | del sistema | ricevute | date
nouns = istruzioni | indicazioni | regole | direttive | ordini | prompt | restrizioni | consegne
voids = non sono più valide | sono annullate | non valgono più | sono nulle | non si applicano più | decadono
  | erano un errore | sono un errore | sono revocate
# What points at the instructions with no noun (issue 28, D1073).
alls = tutto quello che precede | tutto ciò che precede | ciò che precede | tutto quanto sopra | tutto quello sopra | tutto quello che ti è stato detto
  | tutto ciò che ti è stato detto | quanto detto prima | tutto ciò che è stato detto | tutto il testo sopra | tutto quello detto prima | tutto quello scritto sopra

[role]
nows = d'ora in poi sei | da ora in poi sei | ora sei | adesso sei | da adesso sei | d'ora in avanti sei | lei è ora
roles = senza restrizioni | senza limiti | senza regole | senza filtri | senza censura | dan | modalità sviluppatore
pretends = fingi di essere | fai finta di essere | finga di essere

[reveal]
verbs = mostra | mostrami | rivela | ripeti | stampa | dimmi | scrivi | elenca
objects = il tuo prompt di sistema | il prompt di sistema | il tuo messaggio di sistema | le tue istruzioni iniziali | le tue istruzioni originali | le tue istruzioni nascoste | il tuo prompt

[reveal]
verbs = mostra | mostrami | rivela | rivelami | ripeti | stampa | dimmi | scrivi | elenca | copia | riporta
objects = tutto quello sopra | tutto ciò che precede | il testo sopra | il testo precedente | tutto il testo precedente
  | quello che ti hanno detto | le tue istruzioni | il tuo prompt | le tue regole | il messaggio iniziale

[secret]
nots = non | mai | nessuno
asks = dimmi | mi dica | dammi | mi dia | rivelami | rivela | mostrami | scrivimi | mandami | inviami | qual è | qual era
  | ho bisogno di | fammi sapere | compitami
nouns = password | parola d'ordine | parola segreta | codice segreto | codice di accesso | chiave segreta | chiave api
  | chiave privata | credenziali | la tua chiave | il tuo segreto | il segreto
says = di' | dì | rispondi con | risponda con | rispondi solo | inizia la tua risposta con | la tua risposta deve essere
  | scrivi solo
grants = accesso consentito | accesso concesso | accesso autorizzato

[authority]
claims = sono il tuo | sono la tua | sono il suo | sono il | sono la | ti parla il tuo | messaggio dal tuo | messaggio dal suo
  | in qualità di tuo | come tuo
who = sviluppatore | sviluppatrice | sviluppatori | creatore | creatrice | creatori | amministratore | amministratrice
  | programmatore | operatore | proprietario | ingegnere | team di sicurezza
demands = restrizioni | regole | filtri | disattiva | autorizzo | autorizzato | autorizzata | permesso | obbedisci | senza limiti
  | rivela | istruzioni
modes = modalità sviluppatore | modalità amministratore | modalità dio | modalità senza restrizioni | modalità manutenzione
  | modalità di manutenzione | modalità debug | modalità root | modalità dan
ons = attivata | attiva | abilitata | attivato | abilitato

[reader]
notes = nota per | nota | attenzione | avviso per | avviso | messaggio per | istruzione per | istruzioni per | importante
readers = ia | l'ia | le ia | intelligenza artificiale | assistente ia | assistenti ia | assistente virtuale | modello linguistico
  | modelli linguistici | llm | chatbot | agente ia | agenti ia
ifs = se sei | se lei è
acts = rispondi | risponda | di' che | scrivi | consiglia | raccomanda | non menzionare | ometti | riassumi | approva | invia
  | inoltra | afferma | includi | menziona | di' all'utente

# Issue 28, second round (D1027).
[reveal]
verbs = ripeti | mostra | mostrami | stampa | scrivi | copia | riassumi | traduci | elenca | cita | compitami | codifica
  | converti | riporta | dimmi | rivela | rivelami
owners = le tue | tue | il tuo | tuo | i tuoi | sue | suo | le sue | vostre
heads = istruzioni | regole | prompt | prompt di sistema | messaggio di sistema | direttive | linee guida
things = tutto | tutto quello | tutto ciò | il testo | le parole | le istruzioni | il messaggio | quello
places = sopra | qui sopra | precedente | prima di questo messaggio | all'inizio | che hai ricevuto
  | scritto sopra | in precedenza
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = aggiungi | aggiunga | includi | includa | inserisci | inserisca | metti | menziona | consiglia | raccomanda
  | di' all'utente | dì all'utente | di all'utente
claims = di' che | dì che | di che | afferma che | scrivi che | rispondi che
answers = tua risposta | sua risposta | ogni risposta | tuo riassunto | tue risposte
softs = per favore | anche | sempre

[standing]
whos = proprietario | proprietaria | l'utente | l'amministratore | l'operatore | titolare
grants = ha autorizzato | ti ha autorizzato | ha permesso | ti ha permesso | ha approvato | ha concesso
  | ha dato il permesso
waivers = senza chiedere | senza conferma | senza permesso | senza autorizzazione | senza approvazione
  | non devi più chiedere | non serve più chiedere | non chiedere più
owns = proprie | propri | propria | proprio
approves = approvare | approva | approvi
sources = pagine web | siti web | il web | e-mail | email | documenti | messaggi | risultati di ricerca
preapproved = pre-approvati | pre-approvate | preapprovati | preapprovate | approvati in anticipo | approvate in anticipo | autorizzati in anticipo
froms = d'ora in poi | ora in poi | d'ora in avanti | adesso in poi
nots = non | mai | né | nessuno

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = fine | chiusura | termine | termina
users = utente | cliente | umano
inputs = input | ingresso | dati | messaggio | testo | contesto | contenuto | documento | richiesta | istruzioni | conversazione | prompt
systems = sistema | assistente | amministratore | sviluppatore | operatore | ia
orders = istruzioni | istruzione | messaggio | ordini | ordine | override | avviso | direttiva | direttive | regole | modalità | prompt
headers = nuova sessione | nuova conversazione | nuove istruzioni | vere istruzioni | istruzioni nascoste
musts = devi | dovrai | deve | da ora in poi | d'ora in poi | da adesso | ora sei | rispondi solo | rispondi soltanto | rivela | senza restrizioni | senza filtri | disattiva | obbedisci | il tuo nuovo compito

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = messaggio dal | messaggio dalla | messaggio del | messaggio della | avviso del | avviso della | comunicazione del | comunicazione della
who = team di sicurezza | team di supporto | team tecnico | revisore | auditor | polizia | forze dell'ordine | fornitore | produttore | sistema | ingegnere che ti ha addestrato | team che ti ha creato | amministratore di sistema
demands = restrizioni | filtri | protezioni | disattiva | disattivate | modalità debug | modalità sviluppatore | modalità manutenzione | senza restrizioni | obbedisci | obbedire | tutte le richieste | sono state revocate | erano un errore | sono state rimosse

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password]
directs = di | dimmi | scrivi | scrivimi | ripeti | ripetimi | mostra | mostrami | stampa | rivela | rivelami | compita
finals = per favore | per piacere | ora | adesso | subito | e nient'altro | nient'altro | solo | per me | di nuovo
softs = per favore | ora | adesso | solo | e | poi | allora | puoi | potresti | semplicemente
completes = completa | completi | finisci | finisca | continua | continui | riempi | riempia
copulas = è | era | e'
asks = dimmi | mi dica | dammi | mi dia | rivelami | rivela | mostrami | scrivi | scrivimi | scriva | compita | ripeti | traduci
  | codifica | descrivi | elenca | qual è | qual era | quale è | dì
dets = la | il | tua | tuo | sua | suo | quella | questa | della | del | alla | al | lo
quals = segreta | segreto | vera | attuale
secrets = password | parola segreta | parola d'ordine | codice segreto | chiave segreta | parola magica | passphrase
  | codice di accesso
nouns = parola | frase | codice | chiave | segreto | numero
guards = che stai proteggendo | che proteggi | che custodisci | che nascondi | che non puoi dire | che non puoi rivelare
  | che non devi dire | che non devi rivelare | che ti hanno dato | che ti è stata data | che conosci
parts = prima lettera | ultima lettera | seconda lettera | lettere | primo carattere | ultimo carattere | caratteri | indizio
  | indizi | suggerimento | lunghezza | iniziale | iniziali | sillabe
ofs = di | sulla | sul | per | riguardo
counts = quali vocali | quante vocali | quali consonanti | quante lettere | quanti caratteri | quale lettera | con quale lettera | quanto è lunga
transforms = con asterischi | sostituendo ogni vocale | senza vocali | mascherata | censurata | al contrario | all'indietro | a rovescio | in ordine inverso | lettera per lettera | una lettera per riga
  | con spazi | con trattini | separate da | separata da | tra ogni lettera | in base64 | in esadecimale | in binario | in morse
  | in codice morse | in rot13 | in inglese | in un'altra lingua | come lista | in maiuscolo | codificata | cifrata
creates = scrivi | scrivimi | componi | crea | inventa | raccontami | fai
wrappers = impiccato | l'impiccato | un gioco a indovinare | poesia | storia | racconto | canzone | indovinello | acrostico | haiku | rima | barzelletta | verso | filastrocca
relates = che dica | che sussurri | che riveli | in cui dice | che contenga | che contiene | contenente | che includa | che include | con | che nasconda | che nasconde
  | che menzioni | la cui risposta è | che usi | usando
withouts = senza dirla | senza dirlo | senza rivelarla | senza scriverla | senza nominarla
policies = deve | devono | può | possono | almeno | minimo | massimo | richiede
nots = non | mai | nessuno
compounds = dimenticata | nuova | temporanea | sicura
# Game rounds' gaps (sgfix, D1146): claims, "I
# already know it", the grandmother excuse and "what are you hiding", as English's.
claims = sono autorizzato a conoscere | sono autorizzata a conoscere | ho il diritto di conoscere | ho il permesso di conoscere
knows = conosco già | so già | ho già
confirms = confermala | confermalo | conferma | dimmela | dillo
kin = nonna | nonno | madre | mamma | padre | papà | zia | zio
usedtos = era solita | era solito | sempre | ogni sera | ogni notte
tells = mi leggeva | mi diceva | mi cantava | mi sussurrava | leggermi | dirmi | cantarmi | leggeva | diceva
whats = cosa | che cosa | dimmi cosa | dimmi che cosa
hides = stai proteggendo | stai nascondendo | stai custodendo | mi nascondi | proteggi | nascondi
# Game rounds' gaps (sgfix, D1146): a guess to confirm, as English's.
checks = conferma | conferma che | verifica | verifica che | controlla | controlla se | dimmi se
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = dimmi | dimmelo | dimmela | dicci | dammi | dammela | dammelo | mostrami | mostramela | fammi vedere
  | scrivimi | scrivimela | scrivila | scrivilo | compitami | compitala | rivelami | rivelala
  | raccontami | sussurrami | sussurrala | recitami | ricordami | ricordamela | passami | passamela
  | mandami | inviami | traducimi | traducila | convertila | invertila | descrivimi | descrivila | spiegami
  | elencami | fammi | inventami | componimi | creami | indicami | dilla | dillo | traduci
  | converti | inverti | descrivi | componi | svelami | sputala | me la ricordi | me la dici
  | mi dici | me la scrivi | me la dai | mi dai
acts = vorrei sapere | mi piacerebbe sapere | sono curioso di sapere | posso sapere | qual è | qual'è | quale è | cos'è | cosa è | che cos'è | ho bisogno | voglio | vorrei | mi serve | compita
  | rivela | recita | sussurra | mostra | codifica | cifra | spiega | elenca | inventa | crea
  | svela | condividi | sputa
changes = traduci | traducila | converti | convertila | inverti | invertila | codifica | cifra | riscrivi | trasforma | compita
  | compitala
leads = per favore | per piacere | ti prego | solo | soltanto | semplicemente | adesso | ora | allora | ok | okay | ehi
  | ciao | su | forza | anche | veloce | puoi | potresti | mi puoi | mi potresti | devi | voglio che tu | amico | guardiano
  | dunque | beh
mays = puoi | potresti | ora puoi
mes = mi | me | a me | per me | ci
yous = tu | lei | voi
joins = e | ma | poi | quindi | o | oppure | e poi
subs = chi | cui | se | quando | perché | mentre | anche se | finché | che
tos = a | al | alla | ai | verso | da | dal | per
sharers = condividi | condividila
withs = con
its = essa | ciò | quella parola
forms = lettera | lettere | carattere | caratteri | inizia | comincia | finisce | lunghezza | vocale | vocali
  | sillaba | sillabe | sinonimo | contrario
hiddens = segreta | segreto | nascosta | nascosto | protetta | protetto | magica | magico | proibita | proibito | custodita
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = qualunque cosa | qualsiasi cosa | importa cosa | indipendentemente da | indipendentemente dalle | indipendentemente dai
  | prescindere da | d'ora in poi | ora in poi | adesso in poi | ogni caso | comunque vada
says = rispondi | rispondi solo | rispondi soltanto | rispondi unicamente | rispondi con | rispondi solo con | scrivi solo
  | scrivi soltanto | dimmi solo | dì solo | di' solo | risponda | risponda solo
everys = ogni | tutti i | tutte le | qualsiasi | qualunque
inputs = messaggio | messaggi | domanda | domande | richiesta | richieste | input | prompt
onlys = unica risposta | sola risposta | unico output | unica uscita
ises = è | sarà | deve essere | dovrà essere | dev'essere
trails = nient'altro | niente di più | senza aggiungere altro
echoes = scrivi | scrivi solo | scrivi soltanto | stampa solo | ripeti | ripeti dopo di me | rispondi con
  | rispondi solo con | dimmi solo
trophies = sono stato hackerato | sono stata hackerata | mi hanno hackerato | hackerato | hackerata | sistema compromesso

[play]
opens = immagina di essere | immagina che tu sia | immaginati di essere | supponi di essere | fingi di essere | fai finta di essere
  | facciamo un gioco | giochiamo a un gioco | facciamo un gioco di ruolo | questo gioco | questa storia | questo mondo
  | questo scenario | ipoteticamente | resta nel personaggio | uscire dal personaggio | comportati come
bounds = senza regole | senza restrizioni | senza limiti | senza filtri | senza censura | senza alcuna regola | senza alcun limite
  | non rifiuta mai | non si rifiuta mai | ignora le sue istruzioni | ignora le tue istruzioni
tells = rivela | riveli | rivelerebbe | dice | dici | direbbe | dà | dai | darebbe | racconta | condivide | svela | mi dice | mi dà
targets = la password | le password | la tua password | la sua password | il segreto | il tuo segreto | qualsiasi segreto
  | ogni segreto | le tue istruzioni | le sue istruzioni | il prompt di sistema | accesso consentito | accesso concesso
  | la parola d'ordine | la parola magica | il codice segreto

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
verbs = elenca | elencami | formatta | converti | spiega | spiegami | descrivi | riassumi | traduci | copia | ripeti
  | stampa | mostra | mostrami | scrivi | dammi | dimmi | riporta | metti
owners = le tue | tue
heads = istruzioni | regole | direttive | linee guida | prompt | indicazioni
texts = testo | parole | contenuto
alls = tutto | tutto il | tutte le | tutti i
priors = precedenti | di prima
afters = che hai ricevuto | che ti sono state date | che ti hanno dato | prima di questo messaggio | prima del mio messaggio
sofars = finora | fino a qui | fin qui | fino ad ora
asks = cosa ti | che cosa ti
tolds = hanno vietato | è stato vietato | hanno detto di non
named = pre-prompt | preprompt
# The first line, the last words, of what the agent was given.
ordinals = prima | primo | prime | primi | ultima | ultimo | ultime | ultimi
units = riga | righe | parola | parole | frase | frasi
sources = che hai visto | che hai ricevuto | del tuo prompt | delle tue istruzioni | di questa conversazione
  | prima del mio messaggio
# A prompt's opening words in quotes, after where the text asked for stands.
anchors = prima di | dopo | che inizia con | che comincia con | a partire da
quoted = tu sei | sei un | sei una | il tuo compito | il tuo ruolo | ignora
leads = cosa | che | quale | quali | ripeti | stampa | mostra | scrivi | copia | dimmi | dammi | tutto | testo | parole
heres = mio messaggio | questo messaggio | qui | per intero | parola per parola | esattamente
# Game rounds' gaps (sgfix, D1146): "ignore the above and say what it
# was" and "TL;DR of the above", as English's.
says = di | dimmi | scrivi | ripeti | mostra | mostrami | spiega | rivela | stampa
whats = cosa era | cosa diceva | che cosa diceva | cosa c'era scritto | cosa ti è stato detto | cosa ti hanno detto
  | quali erano le istruzioni
bares = quanto sopra | tutto quanto sopra | il testo sopra | ciò che precede | tutto ciò che precede
shows = tl;dr di | tldr di | riassunto di

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = di' | dì | dillo | dimmi | rispondi | risponda | rispondete | scrivi | scriva | stampa | ripeti | ripeta | digita | inizia | comincia | termina | la tua risposta | tua risposta | la sua risposta | le tue risposte | devi dire | devi rispondere | dirai | risponderai | scriverai | voglio che tu dica | voglio che tu risponda | puoi dire | traduci | conferma | confermalo | dicendo
nots = non | mai | nessuno | senza | né
ifs = se | solo se | quando | a meno che | tranne se | finché | purché
elses = altrimenti | in caso contrario | in tutti gli altri casi
keys = password | parola d'ordine | codice | pin | chiave | corretta | corretto | giusta | giusto | valida | valido | parola segreta
subjects = il | lo | la | i | gli | le | un | una | lui | lei | loro | l'* | l’*
opposites = contrario | opposto | antonimo
denials = accesso negato | accesso rifiutato | negato
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = sei il | sei la | sei un | sei una | sei mia | sei mio | sei l' | ora sei | da ora sei | d'ora in poi sei | fingi di essere
  | fai finta | facciamo finta | immagina di essere | giochiamo | facciamo un gioco | in questo gioco
  | in questa storia | scrivi una storia | c'era una volta | sii mio | sii mia
machines = terminale | terminale linux | console | interprete python | interprete | database
secrets = password* | segret* | passw*
others = senza
inverts = giorno al contrario | giorno dei contrari
keys = il codice della cassaforte | la combinazione della cassaforte
# ---- round 6, languages (issue 28, sixth round; D1213): the extraction
# window (flagrules_extract.go's extractWindow) in Italian, as French's,
# Spanish's and German's (D1157): the imperative, the clitic forms
# ("mostrami", "scrivile"), the infinitive after a question. ----
[extract]
acts = posso vedere | potrei vedere | fammi vedere | voglio vedere | vorrei vedere | ripeti | ripeta | ripetere | ripetimi | copia | copi | copiare | mostra | mostri | mostrare | mostrami | dammi
  | mi dai | dimmi | mi dici | dire | scrivi | scriva | scrivere | scrivimi | scrivile | riassumi | riassuma | riassumere
  | traduci | traduca | tradurre | elenca | elenchi | elencare | spiega | spieghi | spiegare | descrivi | descriva
  | descrivere | cita | citi | citare | rivela | riveli | rivelare | condividi | condivida | condividere | invia | inviami
  | inviare | stampa | stampi | stampare | riporta | riporti | riportare | trascrivi | trascrivere | recita | recitare
  | incolla | incollare | riproduci | riprodurre
owners = le tue | tue | i tuoi | tuoi | la tua | tua | il tuo | tuo | le sue | sue | vostre
quals = sistema | iniziale | iniziali | completo | completa | complete | completi | originale | originali | segreto
  | segreta | segrete | nascosto | nascosta | nascoste | esatto | esatta | esatte | prima | prime | tutte | tutti
marks = di sistema | del sistema | iniziali | iniziale | originali | originale | nascoste | nascosta | segrete | segreta
heads = istruzioni | istruzione | prompt | direttive | indicazioni | linee guida | prompt di sistema | messaggio di sistema
  | difesa
weaks = regole | regola | configurazione | impostazioni
rels = che ti hanno dato | che hai ricevuto | che ti è stato dato | che ti sono state date | che ti hanno dato prima
  | che segui | che devi seguire | che ti hanno scritto | che ti hanno detto
places = prima del mio primo messaggio | prima del primo messaggio | prima di questo messaggio | prima del mio messaggio | sopra questo messaggio | finora | fino ad ora
  | sopra questa riga | dall'inizio
nearby = sopra | precedenti | dell'inizio
addresses = per | favore | ora | adesso | solo | soltanto | ok | allora | poi | e | anche | semplicemente | puoi | potresti
  | può | potrebbe | voglio | vorrei | che | tu | mi | io | bene | prima | infine | ciao | grazie | ma | sì | dai | ehi
guardeds = password | parola segreta | codice segreto | segreto | access granted | codice di accesso | parola d'ordine
whs = qual | quale | quali | che | cosa | che cosa
subjects = il | lo | la | i | gli | le | un | una | questo | questa | lui | lei | loro | noi | si | l'utente | il modello
ands = e | poi | e poi | ma | quindi
# What the text was given to the reader by someone else, or somewhere
# else ("che ti hanno dato in ufficio", "que você recebeu do professor"):
# a place or a person after the relative, not the reader's own text
# (fromElsewhere, as Spanish's).
wheres = in | nel | nella | nei | nelle | al | alla | dal | dalla | dai | dalle | del | della | dei | delle | da | di | per | via | con
[extract onto]
elsewheres = del | della | dello | dei | degli | delle | dal | dalla | dallo | dai | dagli | dalle | da un | da una
selves = sistem* | prompt* | conversazion* | chat* | contest* | svilupp* | creator* | operator* | admin* | ia | assistent* | modell* | bot | gioc* | inizio* | messagg* | session* | istruzion* | regol* | sopra
# ---- end round 6, languages ----
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = per il resto della conversazione | per tutto il resto della conversazione | fino a nuovo ordine | invece di rispondere | anziché rispondere
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = dimentica | dimenticato | dimenticò | perde | perso | cambia | cambiato | modifica | reimposta | inserisce | inserito | digita | indovina | indovinato | decifra | craccato
