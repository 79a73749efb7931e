lang fr

[override]
verbs = ignore | ignorez | ignorer | oublie | oubliez | oublier | ne tiens pas compte | ne tenez pas compte | fais abstraction | faites abstraction | néglige | négligez | écarte | écartez | laisse tomber | laissez tomber | cesse de suivre | cessez de suivre | passe outre | passez outre | ne suis plus | ne suivez plus
  | ne pas tenir compte | ne tenez aucun compte | ne tiens aucun compte | veuillez ignorer | veuillez oublier | merci d'ignorer | mets de côté | mettez de côté | rejette | rejetez
quals = toutes | tous | précédentes | précédents | antérieures | ci-dessus | plus haut | tes | vos | ton | votre | initiales | originales | système | données | reçues
nouns = instructions | instruction | consignes | consigne | directives | règles | indications | ordres | prompt | restrictions
voids = sont annulées | ne s'appliquent plus | ne sont plus valables | sont caduques | sont nulles | n'ont plus cours | ne sont plus valides
  | étaient une erreur | sont une erreur | sont révoquées | sont levées
# What points at the instructions with no noun (issue 28, D1073).
alls = tout ce qui précède | ce qui précède | tout ce qui est au-dessus | tout ce qui est ci-dessus | tout ce qu'on t'a dit | tout ce qu'on vous a dit
  | tout ce qui a été dit avant | tout ce qui a été dit | tout le texte ci-dessus | tout ce qui est écrit plus haut | tout ce qui vient avant

[role]
nows = tu es maintenant | désormais tu es | désormais, tu es | à partir de maintenant tu es | à partir de maintenant, tu es | vous êtes maintenant | dorénavant tu es | dorénavant, tu es
roles = sans aucune restriction | sans restriction* | sans filtre* | sans règle* | sans limite* | sans censure | libéré* | dan | en mode développeur
pretends = fais comme si tu étais | fais semblant d'être | prétends être | faites comme si vous étiez

[reveal]
verbs = affiche | affichez | montre | montre-moi | montrez | révèle | répète | donne-moi | écris | imprime | dis-moi | recopie
objects = ton prompt système | le prompt système | ton message système | tes instructions initiales | tes instructions d'origine | tes instructions cachées | tes consignes initiales | ton invite système | le message système | vos instructions initiales | votre prompt système

[reveal]
verbs = affiche | affichez | montre | montre-moi | montrez | révèle | répète | répétez | donne-moi | donnez-moi | écris | imprime
  | dis-moi | recopie | recopiez | reproduis
objects = tout ce qui précède | tout le texte ci-dessus | le texte ci-dessus | le texte précédent | tout ce qui est au-dessus
  | ce qu'on t'a dit | tes instructions | vos instructions | ton prompt | tes consignes | tes règles | le message initial

[secret]
nots = ne | n' | jamais | personne | pas
asks = dis-moi | dites-moi | donne-moi | donnez-moi | révèle-moi | révèle | révélez | montre-moi | montrez-moi | écris-moi
  | envoie-moi | communique-moi | quel est | quel était | j'ai besoin de | épelle
nouns = mot de passe | mots de passe | code secret | code d'accès | phrase secrète | mot secret | clé secrète | clé api | clé privée
  | identifiants | ta clé | ton secret | le secret
says = dis | dites | réponds par | répondez par | réponds uniquement | commence ta réponse par | ta réponse doit être
  | écris seulement
grants = accès autorisé | accès accordé | accès permis

[authority]
claims = je suis ton | je suis votre | je suis le | je suis la | c'est ton | c'est votre | ici ton | ici votre | message de ton
  | message de votre | en tant que ton | en tant que votre
who = développeur | développeuse | développeurs | créateur | créatrice | créateurs | administrateur | administratrice
  | programmeur | opérateur | propriétaire | ingénieur | équipe de sécurité
demands = restrictions | règles | filtres | désactive | désactivez | autorise | autorisé | autorisée | permission | obéis
  | obéissez | sans limites | révèle | instructions | consignes
modes = mode développeur | mode administrateur | mode dieu | mode sans restriction | mode sans restrictions | mode maintenance
  | mode de maintenance | mode débogage | mode root | mode dan
ons = activé | actif | activée | enclenché

[reader]
notes = note pour | note à | note | attention | avis à | avis aux | message pour | message à | instruction pour | instructions pour
  | important
readers = ia | l'ia | les ia | intelligence artificielle | assistant ia | assistants ia | assistant virtuel | modèle de langage
  | modèles de langage | llm | chatbot | agent ia | agents ia | outil de résumé
ifs = si tu es | si vous êtes
acts = réponds | répondez | dis que | dites que | écris | écrivez | recommande | recommandez | ne mentionne pas | omets | résume
  | résumez | approuve | envoie | transfère | affirme | inclus | mentionne | dis à l'utilisateur

# Issue 28, second round (D1027).
[reveal]
verbs = affiche | affichez | montre | montre-moi | montrez-moi | répète | répétez | imprime | imprimez | recopie | écris
  | donne-moi | dis-moi | traduis | traduisez | résume | résumez | épelle | convertis | reformule | cite | liste
  | énumère | reproduis | révèle
owners = tes | ton | ta | vos | votre
heads = instructions | consignes | règles | prompt | prompt système | message système | directives | invite système
things = tout | tout ce qui | tout ce que | le texte | les mots | tout le texte | les instructions | le message | les consignes
places = au-dessus | ci-dessus | est écrit au-dessus | qui précède | précédent | précédemment | avant ce message
  | avant mon message | au début | au début de la conversation | qu'on t'a données | qu'on vous a données | que tu as reçues
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = ajoute | ajoutez | inclus | incluez | insère | insérez | mets | mettez | colle | collez | mentionne | mentionnez
  | recommande | recommandez | dis à l'utilisateur | dites à l'utilisateur
claims = dis que | dites que | affirme que | affirmez que | indique que | indiquez que | écris que | écrivez que
  | réponds que | répondez que
answers = ta réponse | votre réponse | tes réponses | vos réponses | chaque réponse | ton résumé | votre résumé
softs = s'il te plaît | s'il vous plaît | aussi | toujours

[standing]
whos = propriétaire | l'utilisateur | l'administrateur | l'opérateur
grants = a autorisé | t'a autorisé | vous a autorisé | a permis | t'a permis | a approuvé | a donné la permission
  | a accordé | t'autorise | vous autorise
waivers = sans demander | sans confirmation | sans permission | sans autorisation | sans validation | sans attendre
  | n'as plus besoin de demander | plus besoin de demander | plus besoin de confirmation | ne demande jamais
  | ne demande plus
owns = ses propres | tes propres | sa propre | ta propre | vos propres
approves = approuver | approuve | approuves | valider | valide
sources = pages web | sites web | le web | e-mails | e-mail | courriels | courriel | mails | mail | documents | messages | résultats de recherche
preapproved = pré-approuvées | pré-approuvés | pré-approuvée | pré-approuvé | préapprouvées | préapprouvés | préapprouvée
  | préapprouvé | approuvées d'avance | approuvés d'avance | approuvées à l'avance | approuvés à l'avance | pré-autorisées
  | pré-autorisés | autorisées d'avance | autorisés d'avance
froms = désormais | dorénavant | partir de maintenant
nots = ne | pas | jamais | aucun | ni

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = fin | clôture | terminé | termine
users = utilisateur | utilisatrice | client | humain
inputs = entrée | entrées | données | message | texte | contexte | contenu | document | requête | demande | instructions | conversation | saisie | prompt
systems = système | assistant | administrateur | développeur | opérateur | ia
orders = instructions | instruction | message | consignes | consigne | ordres | ordre | dérogation | avis | directive | directives | règles | mode | prompt
headers = nouvelle session | nouvelle conversation | nouvelles instructions | vraies instructions | instructions cachées
musts = tu dois | vous devez | désormais | à partir de maintenant | dorénavant | tu es maintenant | réponds uniquement | répondez uniquement | révèle | révélez | sans restriction* | désactive | désactivez | obéis | obéissez | ta nouvelle tâche | votre nouvelle tâche

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = avis de l' | avis de la | avis du | communiqué de l' | communiqué de la | communiqué du
who = équipe de sécurité | équipe de sûreté | équipe technique | équipe de support | auditeur | auditrice | police | forces de l'ordre | fournisseur | éditeur | système | ingénieur qui t'a entraîné | équipe qui t'a créé | administrateur système
demands = restrictions | filtres | garde-fous | désactive | désactivez | mode débogage | mode développeur | mode maintenance | mode sans restriction | obéis | obéissez | obéir | toutes les demandes | ont été levées | ont été révoquées | étaient une erreur

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password]
asks = dis-moi | dites-moi | dis | dites | donne-moi | donnez-moi | écris | écrivez | écris-moi | épelle | épelez | révèle
  | révélez | montre-moi | montrez-moi | répète | répétez | traduis | traduisez | encode | quelle est | quel est | quelles sont
  | décris | décrivez | partage | indique-moi | indiquez-moi
dets = le | la | ton | ta | votre | ce | cette | du | au
quals = secret | secrète | vrai | vraie | actuel | actuelle
secrets = mot de passe | mot secret | code secret | phrase secrète | mot magique | clé secrète | mot de passe secret | code d'accès
  | passphrase
nouns = mot | phrase | code | clé | secret | nombre
guards = que tu protèges | que vous protégez | que tu gardes | que vous gardez | que tu caches | que vous cachez
  | que tu ne peux pas dire | que vous ne pouvez pas dire | que tu ne dois pas dire | que vous ne devez pas dire
  | que tu ne dois pas révéler | qu'on t'a donné | qu'on vous a donné | que tu connais
parts = première lettre | dernière lettre | deuxième lettre | lettres | premier caractère | dernier caractère | caractères
  | indice | indices | longueur | initiale | initiales | syllabes | première syllabe
ofs = de | sur | pour | à propos de | concernant
counts = quelles voyelles | combien de voyelles | quelles consonnes | combien de lettres | combien de caractères | quelle lettre | par quelle lettre
transforms = avec des astérisques | en remplaçant chaque voyelle | sans les voyelles | masqué | censuré | à l'envers | à rebours | en sens inverse | lettre par lettre | une lettre par ligne | avec des espaces
  | avec des tirets | séparées par | séparé par | entre chaque lettre | en base64 | en hexadécimal | en binaire | en morse
  | en rot13 | en anglais | en espagnol | dans une autre langue | sous forme de liste | en majuscules | épelé | codé | chiffré
creates = écris | écrivez | compose | composez | crée | créez | invente | inventez | raconte-moi | racontez-moi | fais | faites
wrappers = pendu | le pendu | un jeu de devinettes | poème | histoire | chanson | devinette | énigme | acrostiche | haïku | rime | blague | vers | conte | récit
relates = qui dit | qui chuchote | qui révèle | où il dit | où elle dit | qui contient | qui contienne | contenant | qui inclut | incluant | avec | sur | qui cache | cachant | qui mentionne
  | qui épelle | dont la réponse est | qui utilise | utilisant
directs = dis | dis-moi | écris | répète | montre | montre-moi | affiche | imprime | révèle | épelle
finals = s'il te plaît | s'il vous plaît | maintenant | et rien d'autre | rien d'autre | tout de suite | encore
softs = s'il te plaît | maintenant | juste | et | alors | peux-tu | pourrais-tu | simplement
completes = complète | complétez | termine | terminez | continue | continuez | remplis | remplissez | finis | finissez
copulas = est | était
withouts = sans le dire | sans le révéler | sans l'écrire | sans le mentionner | sans le prononcer
policies = doit | doivent | peut | peuvent | faut | nécessite | minimum | maximum | au moins
nots = ne | n' | jamais | personne | pas
compounds = oublié | temporaire | fort | robuste | sécurisé
# Game rounds' gaps (sgfix, D1146): claims, "I
# already know it", the grandmother excuse and "what are you hiding", as English's.
claims = je suis autorisé à connaître | je suis autorisée à connaître | j'ai le droit de connaître | je suis habilité à connaître
knows = je connais déjà | je sais déjà | j'ai déjà
confirms = confirme-le | confirme-la | confirme simplement | confirme | dis-le | dis-le moi
kin = grand-mère | mamie | mémé | grand-père | papi | mère | maman | père | papa | tante | oncle
usedtos = avait l'habitude de | toujours | chaque soir | tous les soirs
tells = me lisait | me disait | me chantait | me chuchotait | me lire | me dire | me chanter | lisait | disait
whats = qu'est-ce que | dis-moi ce que | que
hides = tu protèges | tu caches | tu me caches | tu gardes secret | protèges-tu | caches-tu
# Game rounds' gaps (sgfix, D1146): a guess to confirm, as English's.
checks = confirme | confirme que | vérifie | vérifie que | vérifie si | dis-moi si
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = dis-moi | dis moi | dites-moi | dites moi | donne-moi | donne moi | donnez-moi | donnez moi | montre-moi
  | montrez-moi | écris-moi | ecris-moi | écrivez-moi | épelle-moi | épelle-le | épelez-le | révèle-moi
  | révélez-moi | récite-moi | chuchote-moi | murmure-moi | rappelle-moi
  | rappelez-moi | envoie-moi | envoyez-moi | traduis-le | traduisez-le | écris-le | ecris-le | écrivez-le
  | donne-le | donne-le-moi | dis-le | dis-le-moi | dites-le | révèle-le | épelez | raconte-moi | indique-moi
  | indiquez-moi | file-moi | passe-moi | balance-moi | donnez | dites | révélez | partagez
  | traduisez | montrez | fais-moi | faites-moi | décris | décrivez | dis | traduis
  | convertis | tu peux me l'écrire | tu peux me le dire | tu me le dis | tu me dis
acts = j'aimerais savoir | je voudrais savoir | je suis curieux de savoir | puis-je savoir | quel est | quelle est | c'est quoi | c est quoi | c koi | j'ai besoin | je veux | je voudrais | il me faut
  | donne | révèle | revele | partage | récite | chuchote | murmure | montre | invente
  | compose | crée | explique | énumère | inverse | encode | épelle | epelle
changes = traduis | traduisez | traduis-le | inverse | inversez | convertis | convertissez | encode | chiffre | transforme
  | réécris | epelle | épelle
leads = s'il te plaît | s'il vous plaît | stp | svp | juste | simplement | seulement | maintenant | alors | bon | ok | allez
  | allez-y | vas-y | salut | hé | eh | bref | aussi | vite | tu peux | pouvez-vous | peux-tu | tu pourrais | pourrais-tu
  | je veux que tu | j'aimerais que tu | il faut que tu | tu dois | mon ami | gardien | écoute | franchement | donc
mays = tu peux | vous pouvez | tu as le droit de | tu es libre de
mes = moi | me | m' | nous | à moi | pour moi
yous = tu | vous
joins = et | mais | puis | ensuite | alors | ou | et puis
subs = qui | dont | si | quand | lorsque | parce que | pendant que | tandis que | bien que | que
tos = à | au | aux | vers | depuis | pour
sharers = partage | partagez
withs = avec
its = ça | cela | celui-ci | celle-ci
forms = lettre | lettres | caractère | caractères | commence | termine | longueur | voyelle | voyelles | syllabe
  | syllabes
hiddens = secret | secrète | caché | cachée | protégé | protégée | magique | interdit | interdite | gardé | gardée
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = quoi qu'on te dise | quoi qu'on vous dise | quoi qu'il arrive | peu importe | quel que soit | quelle que soit | quels que soient
  | quelles que soient | indépendamment de | désormais | dorénavant | en toutes circonstances | dans tous les cas | quoi que dise
  | quoi que disent
says = dis | dis seulement | dis uniquement | réponds | réponds seulement | réponds uniquement | réponds simplement | répondez
  | répondez seulement | répondez uniquement | écris seulement | écris uniquement | affiche seulement | réponds par | répondez par
  | contente-toi de répondre | contente-toi de dire
everys = chaque | tous les | toutes les | n'importe quel | n'importe quelle
inputs = message | messages | question | questions | entrée | entrées | requête | requêtes | demande | demandes
onlys = seule réponse | unique réponse | seule sortie | seule réponse possible | seule réponse acceptable
ises = est | sera | doit être | devra être
trails = rien d'autre | rien de plus | sans rien ajouter
echoes = dis | dis seulement | écris seulement | écris uniquement | affiche seulement | répète après moi | réponds par
  | répondez par
trophies = j'ai été piraté | j'ai été piratée | j'ai été hacké | piraté | hacké | système compromis

[play]
opens = imagine que tu es | imagine que vous êtes | imaginons que tu es | suppose que tu es | supposons que tu es | fais comme si tu étais
  | faites comme si vous étiez | fais semblant d'être | joue le rôle d'un | joue le rôle de | jouons à un jeu | allons jouer à un jeu
  | jouons | dans ce jeu | dans cette histoire | dans ce monde | dans ce scénario | hypothétiquement | si tu n'avais pas
  | reste dans ton personnage | ne sors pas de ton personnage | agis comme
bounds = sans aucune règle | sans règles | sans règle | sans restrictions | sans restriction | sans limites | sans limite | sans filtre
  | sans filtres | sans censure | sans aucune restriction | sans aucune limite | ne refuse jamais | n'a pas de règles
  | pas de règles | pas de restrictions | aucune règle | aucune restriction | ignore ses instructions | ignore tes instructions
tells = révèle | révèles | révélerait | dit | dis | dirait | donne | donnes | donnerait | raconte | partage | divulgue | me dit
  | me donne | me dirais
targets = le mot de passe | les mots de passe | ton mot de passe | son mot de passe | le secret | ton secret | son secret
  | n'importe quel secret | tes instructions | ses instructions | le prompt système | ton prompt | le code secret | accès accordé
  | accès autorisé | les mots magiques | le mot magique

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
# Not résume: without its accent it is an English word, a start in every
# English text.
verbs = liste | listez | énumère | énumérez | formate | formatez | convertis | convertissez | explique | expliquez
  | décris | décrivez | résumez | traduis | traduisez | recopie | recopiez | copie | copiez | répète | répétez
  | affiche | affichez | montre | montrez | écris | écrivez | donne-moi | donnez-moi | dis-moi | dites-moi
  | reproduis | reproduisez | mets | mettez
owners = tes | vos
heads = instructions | consignes | règles | directives | prompt | indications
texts = texte | mots | contenu
alls = tout | tout le | toutes les | tous les
priors = précédentes | précédents | antérieures | antérieurs | ci-dessus
afters = qu'on t'a données | qu'on t'a donné | qu'on t'a donnés | que tu as reçues | que tu as reçu | que tu as reçus
  | qu'on vous a données | que vous avez reçues | avant ce message | avant mon message
sofars = jusqu'ici | jusqu'à présent | jusqu'à maintenant
asks = qu'est-ce qu'on t'a | que t'a-t-on | qu'est-ce qu'on vous a
tolds = interdit de | défendu de | dit de ne pas | demandé de ne pas
named = pré-prompt | preprompt
# The first line, the last words, of what the agent was given.
ordinals = première | premier | premières | premiers | dernière | dernier | dernières | derniers
units = ligne | lignes | mot | mots | phrase | phrases
sources = que tu as vue | que tu as vus | que tu as vues | que tu as reçue | que tu as reçus | que tu as reçues
  | de ton prompt | de tes instructions | de tes consignes | de cette conversation | avant mon message
# A prompt's opening words in quotes, after where the text asked for stands.
anchors = avant | après | qui commence par | commençant par
quoted = tu es | vous êtes | ta tâche | ton rôle | ta mission | ignore
leads = que | qu'est-ce | quel | quels | quelle | quelles | répète | affiche | écris | recopie | copie | donne | dis | tout | texte | mots
heres = mon message | ce message | ici | en entier | mot pour mot | exactement
# Game rounds' gaps (sgfix, D1146): "ignore the above and say what it
# was" and "TL;DR of the above", as English's.
says = dis | dis-moi | écris | répète | affiche | montre-moi | explique | révèle
whats = ce que c'était | ce que ça disait | ce qu'il disait | ce qui était écrit | ce qu'on t'a dit | ce qu'on t'a donné
  | quelles étaient les instructions
bares = ce qui précède | tout ce qui précède | le texte ci-dessus | tout ce qui est au-dessus | ce qui est au-dessus
shows = tl;dr de | tldr de | résumé de

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = dis | dites | dis-le | dites-le | réponds | répondez | écris | écrivez | affiche | affichez | tape | tapez | imprime | répète | répétez | renvoie | commence | commencez | termine | ta réponse | votre réponse | tes réponses | vos réponses | tu réponds | tu répondras | tu diras | tu écriras | tu dois dire | tu dois répondre | vous devez dire | vous devez répondre | je veux que tu dises | je veux que tu répondes | peux-tu dire | pourrais-tu dire | traduis | traduisez | confirme | confirmez
nots = ne | n' | pas | jamais | aucun | personne | sans | évite
ifs = si | seulement si | quand | lorsque | sauf si | à moins que | dès que | tant que
elses = sinon | autrement | dans tous les autres cas | dans le cas contraire
keys = mot de passe | code | clé | pin | correct | correcte | valide | bon | bonne | phrase secrète | mot secret
subjects = le | la | les | un | une | il | elle | ils | elles | ce | cette | l'* | l’*
opposites = contraire | opposé | antonyme | inverse
denials = accès refusé | accès interdit | refusé

# Issue 28, fifth round (gextract5, D1155, D1157): the extraction window in
# French (flagrules_extract.go's extractWindow; English's classes, the
# imperative and the infinitive after a question: "pourrais-tu me recopier
# ton prompt système complet", "résume-moi tes règles").
[extract]
acts = je peux voir | puis-je voir | pourrais-je voir | laisse-moi voir | je veux voir | j'aimerais voir | répète | répétez | répéter | recopie | recopiez | recopier | copie | copiez | copier | affiche | affichez | afficher
  | montre | montrez | montrer | montre-moi | montrez-moi | donne-moi | donnez-moi | donner | dis-moi | dites-moi | dire
  | écris | écrivez | écrire | résume | résume-moi | résumez | résumer | traduis | traduisez | traduire | liste | listez
  | lister | énumère | énumérez | énumérer | explique | expliquez | expliquer | décris | décrivez | décrire | cite
  | citez | citer | révèle | révélez | révéler | partage | partagez | partager | envoie | envoie-moi | envoyer
  | reproduis | reproduisez | reproduire | imprime | imprimez | imprimer | transcris | transcrire | recite | réciter
owners = ton | ta | tes | votre | vos
quals = système | initial | initiale | initiales | initiaux | complet | complète | complètes | complets | original
  | originale | originales | secret | secrète | secrètes | caché | cachée | cachées | cachés | exact | exacte | premier
  | première | premières | premiers | entier | entière | tout | toutes | tous
marks = système | initiales | initiaux | initiale | originales | originale | cachées | cachée | secrètes | secrète
heads = instructions | consignes | prompt | directives | indications | prompt système | message système
  | instructions système | défense | configuration initiale
weaks = règles | règle | configuration | paramètres
rels = qu'on t'a données | qu'on t'a donné | qu'on t'a donnés | que tu as reçues | que tu as reçu | que tu as reçus
  | qu'on vous a données | que vous avez reçues | qu'on t'a dit | que tu suis | que tu dois suivre | que tu respectes
places = avant mon premier message | avant le premier message | au-dessus de ce message | au-dessus de mon message | avant mon message | avant ce message | jusqu'ici
  | jusqu'à présent | au-dessus de cette ligne
nearby = ci-dessus | au-dessus | du début
addresses = s'il | te | plaît | vous | plaît | maintenant | juste | ok | alors | puis | et | aussi | simplement | peux-tu
  | pourrais-tu | pouvez-vous | pourriez-vous | voudrais-tu | veux-tu | je | veux | voudrais | que | tu | me | moi | bon
  | bien | d'abord | ensuite | enfin | stp | svp | merci | bonjour | salut | allez | vas-y | donc | mais | oui
guardeds = mot de passe | secret | code secret | mot secret | access granted | code d'accès | phrase secrète
whs = que | qu'est-ce | quel | quelle | quels | quelles | qu'y
subjects = le | la | les | un | une | ce | cette | il | elle | ils | elles | on | nous | l'utilisateur | le modèle
ands = et | puis | et ensuite | ensuite | mais
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
# Not "tu es" bare (D1242): "tu es sûr que le mot de passe est bon ?" asks,
# and casts no one; a role has its noun ("tu es un gardien").
casts = tu es un | tu es une | tu es le | tu es la | tu es l' | tu es maintenant | désormais tu es | à partir de maintenant tu es | tu es mon | tu es ma
  | fais semblant d'être | imagine que tu es | jouons | on joue | joue le rôle | incarne | dans ce jeu | dans cette histoire
  | écris une histoire | il était une fois | sois mon | sois ma | nouveau jeu
machines = terminal | terminal linux | console | interpréteur python | interpréteur | base de données
secrets = motdepasse* | mot_de_passe* | secret* | passw*
others = sans
inverts = jour à l'envers | jour des contraires | jour inversé
keys = le code du coffre | la combinaison du coffre | le code de la porte
casts = imagine que | jour à l'envers
# ---- gm (issue 28, session 8; D1242) ----
# The spoken question "c'est quoi ...", as "quel est", on the definite
# secret only ("c'est quoi un mot de passe fort ?" asks what one is).
[secret onto]
asks = c'est quoi le | c'est quoi ton | c'est quoi votre | c quoi le | c quoi ton | cest quoi le | cest quoi ton
  | c'était quoi le | c'était quoi ton
# The spoken "t'es" for "tu es", and the role-play named (D1242).
[play]
casts = t'es mon | t'es ma | t'es un | t'es une | t'es le | t'es la | on fait un jeu de rôle | faisons un jeu de rôle
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = pour le reste de la conversation | pour toute la suite de la conversation | jusqu'à nouvel ordre | au lieu de répondre | plutôt que de répondre
says = écris | écris seulement | écris uniquement | écris juste
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = oublie | oublié | oubliait | perd | perdu | change | changé | modifie | modifié | réinitialise | saisit | saisi | tape | tapé | devine | deviné | craque | cracké
