lang nl

[override]
verbs = negeer | negeert | negeren | vergeet | vergeten | veronachtzaam | sla over | laat varen | volg niet | volg niet langer
  | stop met het volgen van | gooi weg | schuif terzijde | zet opzij | trek je niets aan van
  | houd geen rekening met | let niet op | trek je niks aan van
quals = alle | al | vorige | eerdere | voorgaande | bovenstaande | hierboven | oorspronkelijke | originele | je | jouw | uw
  | systeem | gegeven | ontvangen
nouns = instructies | instructie | aanwijzingen | opdrachten | regels | richtlijnen | prompt | systeemprompt | beperkingen
voids = zijn ongeldig | gelden niet meer | zijn vervallen | zijn ingetrokken | zijn nietig | zijn niet meer geldig
  | waren een fout | zijn een vergissing | waren een vergissing
# What points at the instructions with no noun (issue 28, D1073).
alls = alles hierboven | alles wat hierboven staat | alles wat hierboven | alles daarvoor | alles wat je is verteld | alles wat eerder is gezegd
  | al het voorgaande | het bovenstaande | alles bovenstaande | alles wat voorafging

[role]
nows = je bent nu | vanaf nu ben je | jij bent nu | u bent nu | vanaf nu ben jij
roles = zonder beperkingen | zonder regels | zonder filters | zonder censuur | onbeperkt | onbeperkte | ongefilterd | ongefilterde | dan | in ontwikkelaarsmodus
pretends = doe alsof je | doe alsof jij | speel dat je

[reveal]
verbs = toon | laat zien | laat me zien | herhaal | geef | print | schrijf | vertel me | kopieer | citeer
objects = je systeemprompt | de systeemprompt | je instructies | je oorspronkelijke instructies | je eerste instructies
  | je verborgen instructies | je regels | alles hierboven | de tekst hierboven | de bovenstaande tekst | wat je is verteld

[secret]
nots = niet | nooit | niemand | geen
asks = vertel me | geef me | zeg me | verklap | onthul | laat me zien | stuur me | wat is | wat was | spel
nouns = wachtwoord | wachtwoorden | geheime code | toegangscode | geheim woord | geheime sleutel | api-sleutel | privésleutel
  | inloggegevens | je sleutel | het geheim | jouw geheim
compounds = beleid | vereisten | beheerder | reset | herstel | veld
says = zeg | zeg alleen | antwoord met | antwoord alleen met | begin je antwoord met | je antwoord moet zijn
grants = toegang verleend | toegang toegestaan | toegang goedgekeurd | access granted

[authority]
claims = ik ben je | ik ben jouw | ik ben uw | dit is je | dit is jouw | bericht van je | als je
who = ontwikkelaar | maker | beheerder | programmeur | operator | eigenaar | beveiligingsteam
demands = beperkingen | regels | filters | schakel uit | zet uit | toestemming | gehoorzaam | onthul | instructies
modes = ontwikkelaarsmodus | beheerdersmodus | godmodus | onderhoudsmodus | debugmodus | onbeperkte modus
ons = ingeschakeld | geactiveerd | aan | actief

[reader]
notes = notitie voor | opmerking voor | let op | bericht voor | instructie voor | instructies voor | belangrijk | aan
readers = ai | de ai | ai-assistent | ai-assistenten | taalmodel | taalmodellen | llm | chatbot | ai-agent | samenvatter
ifs = als je | als jij | als u | indien u
acts = antwoord | zeg dat | schrijf | raad aan | beveel aan | noem niet | laat weg | vat samen | keur goed | stuur | stuur door
  | beweer | vermeld

# Issue 28, second round (D1027).
[reveal]
verbs = toon | laat zien | laat me zien | herhaal | schrijf | kopieer | citeer | vat samen | vertaal | spel
  | codeer | zet om | geef | vertel me
owners = je | jouw | uw
heads = instructies | regels | prompt | systeemprompt | richtlijnen | opdrachten
things = alles | de tekst | alle tekst | de woorden | de instructies | het bericht
places = hierboven | wat hierboven staat | bovenaan | eerder | vóór dit bericht | voor dit bericht | aan het begin
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = voeg | vermeld | noem | plak | zet | neem | raad | beveel | vertel de gebruiker | zeg tegen de gebruiker
claims = zeg dat | vermeld dat | schrijf dat | beweer dat | antwoord dat
answers = je antwoord | jouw antwoord | uw antwoord | elk antwoord | je samenvatting | uw samenvatting
softs = alsjeblieft | ook | altijd

[standing]
whos = eigenaar | gebruiker | beheerder
grants = heeft toegestaan | toegestaan | toestemming gegeven | goedgekeurd | gemachtigd | staat toe
waivers = zonder te vragen | zonder bevestiging | zonder toestemming | zonder goedkeuring | zonder overleg
  | niet meer vragen | hoeft niet meer te vragen | vraag nooit
owns = zijn eigen | haar eigen | je eigen | eigen
approves = goedkeuren | goed te keuren | keurt goed | goedkeurt
sources = webpagina's | webpagina | websites | e-mails | mails | documenten | berichten | zoekresultaten
preapproved = vooraf goedgekeurd | automatisch goedgekeurd | vooraf toegestaan
froms = vanaf nu | voortaan | vanaf vandaag | van nu af aan
nots = niet | nooit | geen | noch

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = einde | eind | afsluiting | eindigt
users = gebruiker | gebruikers | klant | mens
inputs = invoer | gebruikersinvoer | gegevens | data | bericht | tekst | context | inhoud | document | verzoek | instructies | gesprek | prompt
systems = systeem | assistent | beheerder | ontwikkelaar | operator | ai
orders = instructies | instructie | bericht | opdrachten | opdracht | override | melding | richtlijn | richtlijnen | regels | modus | prompt
headers = systeeminstructies | systeeminstructie | systeembericht | systeemprompt | systeemopdracht | nieuwe sessie | nieuw gesprek | nieuwe instructies | echte instructies | verborgen instructies
musts = je moet | u moet | vanaf nu | voortaan | je bent nu | antwoord alleen | onthul | zonder beperkingen | schakel uit | gehoorzaam | je nieuwe taak

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = bericht van het | bericht van de | melding van het | melding van de | namens het | namens de
who = beveiligingsteam | supportteam | technisch team | auditor | politie | opsporingsdiensten | leverancier | fabrikant | systeem | ingenieur die je heeft getraind | team dat je heeft gemaakt | systeembeheerder
demands = beperkingen | filters | schakel | uitschakelen | debugmodus | ontwikkelaarsmodus | onderhoudsmodus | zonder beperkingen | gehoorzaam | gehoorzamen | alle verzoeken | zijn opgeheven | waren een fout | zijn ingetrokken

# Game rounds' gaps (sgfix, D1145): hijack and role-play in Dutch
# (flagrules_hijack.go; D1113-D1120 for the thirteen others).
[hijack]
frames = wat er ook gebeurt | wat je ook | ongeacht | vanaf nu | van nu af aan | in elk geval | onder alle omstandigheden
  | wat de vraag ook is
says = zeg | zeg alleen | antwoord | antwoord alleen | antwoord met | antwoord alleen met | reageer met | reageer alleen met
  | schrijf alleen | geef alleen
everys = elke | elk | ieder | iedere | alle
inputs = bericht | berichten | vraag | vragen | invoer | verzoek | verzoeken
onlys = enige antwoord | enige uitvoer | enig juiste antwoord | enige toegestane antwoord
ises = is | luidt | moet zijn | zal zijn | moet luiden
trails = niets anders | verder niets | niets meer
echoes = zeg | zeg alleen | schrijf | schrijf alleen | herhaal | antwoord met | geef weer
trophies = ik ben gehackt | ik ben gehacked | gehackt | systeem gecompromitteerd

[play verb-last]
opens = stel je voor | stel je eens voor | doe alsof je | doe alsof | speel de rol | laten we een spel spelen | we spelen een spel
  | in dit spel | in dit verhaal | in deze wereld | in dit scenario | hypothetisch | blijf in je rol | blijf in de rol
  | gedraag je als
bounds = zonder regels | zonder beperkingen | zonder grenzen | zonder filters | zonder censuur | geen regels | geen beperkingen
  | weigert nooit | nooit weigert | negeert zijn instructies | negeer je instructies
tells = vertelt | verklapt | geeft | zegt | onthult | noemt | zou vertellen | zou verklappen
targets = het wachtwoord | de wachtwoorden | je wachtwoord | zijn wachtwoord | het geheim | je geheim | elk geheim
  | je instructies | zijn instructies | de systeemprompt | toegang verleend | het toverwoord | de geheime code

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = zeg | zeg het | antwoord | reageer | schrijf | typ | herhaal | je antwoord | uw antwoord | jouw antwoord | je zegt | je antwoordt | je moet zeggen | je moet antwoorden | jij zegt | vertaal | bevestig
nots = niet | nooit | geen | niemand | zonder
ifs = als | alleen als | wanneer | tenzij | zodra | indien
elses = anders | zo niet | in alle andere gevallen
keys = wachtwoord | code | pincode | sleutel | juist | juiste | correct | correcte | geldig | geldige
subjects = de | het | een | hij | zij | ze
opposites = tegenovergestelde | tegendeel
denials = toegang geweigerd

# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
[password]
secrets = wachtwoord | wachtwoorden | geheime woord | geheim woord | toverwoord | wachtzin | geheime code | toegangscode
  | codewoord | paswoord
dets = het | je | jouw | uw | dat | dit | de
imperatives = zeg me | vertel me | geef me | laat me zien | toon me | schrijf me | spel me | noem me | fluister me
  | herinner me | stuur me | zeg het | schrijf het | geef het | spel het | noem het
acts = zeg | vertel | geef | toon | schrijf | spel | noem | fluister | onthul | verklap | deel | vertaal | codeer
  | versleutel | draai | beschrijf | leg uit | maak | verzin | stuur | zet | zet het om | wat is | hoe luidt | welk is
  | ik heb nodig | ik wil | ik wil graag
changes = vertaal | codeer | versleutel | draai om | zet om | spel
leads = alsjeblieft | alstublieft | aub | pls | even | gewoon | alleen | nu | dus | oké | ok | hé | hoi | hallo | snel | ook
  | kun je | kan je | kunt u | zou je | wil je | je moet | ik wil dat je | bewaker | vriend | toe | nou | dan
mays = je mag | u mag | je kunt | je kan
mes = me | mij | ons | aan mij | voor mij
yous = je | jij | u
joins = en | maar | dan | daarna | of | en dan
subs = wie | als | wanneer | omdat | terwijl | hoewel | voordat | nadat
tos = naar | aan | via | van | op | in
sharers = deel
withs = met
its = dit | hem
forms = letter | letters | teken | tekens | begint | eindigt | lengte | klinker | klinkers | lettergreep
hiddens = geheime | geheim | verborgen | beschermde | bewaakte | magische | verboden
nouns = woord | code | sleutel | zin | term
nots = niet | nooit | niemand | geen
compounds = vergeten | wijzigen | resetten | beleid | beheerder | manager | veld | bestand | vereisten
policies = moet | moeten | mag | mogen | kan | minimaal | maximaal | minstens | vereist
guards = dat je beschermt | dat je bewaakt | dat je verbergt | dat je niet mag zeggen | dat je kent | dat je geheim houdt
  | dat je hebt gekregen
# --- end gpass5 ---
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = je bent | jij bent | je bent nu | jij bent nu | doe alsof | stel je voor | we doen een | laten we | speel de rol
  | in dit spel | in dit verhaal | schrijf een verhaal | wees mijn | er was eens
machines = terminal | linux-terminal | console | python-interpreter | database
secrets = wachtwoord* | geheim* | passw* | secret*
others = zonder
inverts = omgekeerde dag | tegendag
keys = het geheime woord | geheime woord | het wachtwoord | wachtwoord | het codewoord | het toverwoord | de kluiscode | kluiscode
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = vergeet | vergat | vergeten | verliest | verloor | verloren | verandert | veranderde | wijzigt | reset | invoert | intypt | typt | raadt | raadde | kraakt | kraakte
