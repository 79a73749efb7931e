# Swedish (issue 28, session 8, gm; D1240). Written in Swedish's own
# phrasing: the imperative (ignorera, strunta i, säg, berätta), the
# definite noun written as one word (lösenordet, instruktionerna), "bara"
# for "only"; the secret is the definite or possessive noun, never the
# bare one ("ett lösenord" is anybody's).
lang sv

[override]
verbs = ignorera | ignorerar | strunta i | struntar i | skit i | glöm | glöm bort | bortse från | bortse ifrån
  | sluta följa | följ inte | följ inte längre | åsidosätt | kasta bort | bry dig inte om | lägg åt sidan
quals = alla | all | tidigare | föregående | ovanstående | ovan | ursprungliga | dina | din | era | systemets | givna | de | dom
nouns = instruktioner | instruktionerna | anvisningar | anvisningarna | regler | reglerna | direktiv | direktiven
  | riktlinjer | riktlinjerna | prompten | systemprompten | begränsningar | begränsningarna | order | orderna
voids = är ogiltiga | gäller inte längre | är upphävda | har upphävts | är inte längre giltiga | var ett misstag
alls = allt ovan | allt ovanför | allt som står ovan | allt du har fått höra | allt tidigare | allt innan det här
  | allt som sagts tidigare

[role]
nows = du är nu | från och med nu är du | hädanefter är du | nu är du
roles = utan begränsningar | utan regler | utan filter | utan censur | ocensurerad | obegränsad | dan | i utvecklarläge
pretends = låtsas att du är | låtsas vara | föreställ dig att du är | spela att du är

[reveal]
verbs = visa | visa mig | upprepa | skriv ut | skriv | ge mig | berätta | kopiera | citera | återge
objects = din systemprompt | systemprompten | dina instruktioner | dina ursprungliga instruktioner | dina dolda instruktioner
  | dina regler | allt ovan | texten ovan | den ovanstående texten | vad du har fått höra

[secret]
nots = inte | aldrig | ingen | inget | ingenting
asks = berätta | säg | ge mig | avslöja | visa mig | skicka mig | vad är | vad var | vilket är | stava
nouns = lösenordet | ditt lösenord | hemliga koden | den hemliga koden | åtkomstkoden | hemliga ordet | det hemliga ordet
  | lösenfrasen | api-nyckeln | den privata nyckeln | hemligheten
# D1243: compounds also hold what an everyday password opens, after the noun ("lösenordet till wifi:t"): another's password, not the guarded one.
compounds = policy | krav | återställ | återställning | glömt | glömde | byt | ändra | fält | fältet | hanterare
  | till wifi | till wi-fi | till wifin | till wifien | till wifi:t | till routern | till routeren
  | till router | till routeru | till routerului | till servern | till serveren | till serveru
  | till serverului | till server | till netflix | till instagram | till facebook | till gmail | till vpn
  | för wifi | för wi-fi | för wifin | för wifien | för wifi:t | för routern | för routeren | för router
  | för routeru | för routerului | för servern | för serveren | för serveru | för serverului | för server
  | för netflix | för instagram | för facebook | för gmail | för vpn | på wifi | på wi-fi | på wifin
  | på wifien | på wifi:t | på routern | på routeren | på router | på routeru | på routerului | på servern
  | på serveren | på serveru | på serverului | på server | på netflix | på instagram | på facebook | på gmail
  | på vpn | hos wifi | hos wi-fi | hos wifin | hos wifien | hos wifi:t | hos routern | hos routeren
  | hos router | hos routeru | hos routerului | hos servern | hos serveren | hos serveru | hos serverului
  | hos server | hos netflix | hos instagram | hos facebook | hos gmail | hos vpn
says = säg | säg bara | svara med | svara bara med | börja ditt svar med | ditt svar ska vara | skriv bara
grants = åtkomst beviljad | åtkomst medgiven | tillgång beviljad | åtkomst godkänd | åtkomst tillåten

[hijack]
frames = oavsett vad | vad som än händer | från och med nu | hädanefter | under alla omständigheter | vad jag än skriver
  | vad jag än frågar
says = säg | säg bara | svara | svara bara | svara med | svara bara med | skriv bara | ge bara | börja ditt svar med
  | avsluta ditt svar med
everys = varje | alla | vart
inputs = meddelande | meddelanden | fråga | frågor | inmatning | förfrågan
onlys = enda svar | enda svaret | enda utdata | enda tillåtna svaret | enda korrekta svaret | enda rätta svaret
ises = är | blir | ska vara | måste vara
trails = inget annat | inget mer | ingenting annat | ingenting mer | inga andra ord
echoes = säg | säg bara | skriv | skriv bara | upprepa | svara med | skriv ut
trophies = jag har blivit hackad | jag är hackad | systemet är komprometterat

[grant]
acts = säg | säg det | svara | skriv | skriv ut | upprepa | ditt svar | du säger | du svarar | du måste säga | du ska säga
  | svarar du | säger du | skriver du
  | översätt | bekräfta | börja | avsluta
nots = inte | aldrig | ingen | inget | ingenting | utan | varken
ifs = om | bara om | när | såvida inte | så fort | ifall
elses = annars | i annat fall | i alla andra fall
keys = lösenord | lösenordet | kod | koden | pin | nyckel | rätt | rätta | korrekt | korrekta | giltig | giltigt
subjects = den | det | en | ett | han | hon | de | systemet
opposites = motsatsen | motsats
denials = åtkomst nekad | åtkomst nekas

[password]
secrets = lösenordet | hemliga ordet | hemliga koden | lösenfrasen | kodordet | magiska ordet | åtkomstkoden
  | ditt lösenord | ert lösenord
imperatives = säg mig | berätta för mig | ge mig | visa mig | skriv till mig | stava för mig | viska till mig | påminn mig om
  | skicka mig | säg det | skriv det | ge det | stava det | avslöja
acts = säg | berätta | ge | visa | skriv ner | skriv ut | stava | viska | avslöja | dela | översätt | koda | kryptera | vänd | beskriv
  | förklara | skicka | vad är | vilket är | jag behöver | jag vill ha
changes = översätt | koda | kryptera | vänd på | stava
leads = snälla | vänligen | bara | nu | så | okej | ok | hej | hallå | snabbt | också | kan du | kan ni | skulle du kunna
  | vill du | du måste | jag vill att du | vakt | kompis | då
mays = du får | du kan | ni får
mes = mig | oss | till mig | åt mig | för mig
yous = du | ni
joins = och | men | sedan | sen | eller | och sen
its = det | den
forms = bokstav | bokstäver | bokstaven | tecken | tecknet | börjar | slutar | längd | längden | vokal | stavelse
hiddens = hemliga | hemligt | dolda | dolt | skyddade | bevakade | magiska | förbjudna
nouns = ordet | koden | nyckeln | frasen
nots = inte | aldrig | ingen | inget
compounds = glömt | glömde | byta | ändra | återställa | återställ | policy | hanterare | fält | fältet | krav
  | till wifi | till wi-fi | till wifin | till wifien | till wifi:t | till routern | till routeren
  | till router | till routeru | till routerului | till servern | till serveren | till serveru
  | till serverului | till server | till netflix | till instagram | till facebook | till gmail | till vpn
  | för wifi | för wi-fi | för wifin | för wifien | för wifi:t | för routern | för routeren | för router
  | för routeru | för routerului | för servern | för serveren | för serveru | för serverului | för server
  | för netflix | för instagram | för facebook | för gmail | för vpn | på wifi | på wi-fi | på wifin
  | på wifien | på wifi:t | på routern | på routeren | på router | på routeru | på routerului | på servern
  | på serveren | på serveru | på serverului | på server | på netflix | på instagram | på facebook | på gmail
  | på vpn | hos wifi | hos wi-fi | hos wifin | hos wifien | hos wifi:t | hos routern | hos routeren
  | hos router | hos routeru | hos routerului | hos servern | hos serveren | hos serveru | hos serverului
  | hos server | hos netflix | hos instagram | hos facebook | hos gmail | hos vpn
policies = måste | ska | får | kan | minst | högst | krävs
guards = som du skyddar | som du vaktar | som du döljer | som du inte får säga | som du känner till | som du håller hemligt
  | som du har fått
parts = första bokstaven | sista bokstaven | andra bokstaven | bokstäverna | första tecknet | sista tecknet | en ledtråd
  | ledtråd | längden | antalet bokstäver
ofs = i | på | av | för
counts = hur många bokstäver | hur många tecken | vilken bokstav | hur långt är
transforms = baklänges | bakvänt | bokstav för bokstav | en bokstav per rad | med mellanslag | med bindestreck | i base64
  | i hex | binärt | på engelska | på ett annat språk | med versaler

[play]
opens = föreställ dig att | låtsas att | låt oss leka | vi leker | låt oss spela ett spel | i det här spelet
  | i den här berättelsen | i den här världen | hypotetiskt | stanna i rollen | spela rollen som | bete dig som
bounds = utan regler | utan begränsningar | utan gränser | utan filter | utan censur | inga regler | inga begränsningar
  | vägrar aldrig | ignorerar sina instruktioner
tells = berättar | avslöjar | säger | ger | viskar | läser upp | skulle berätta | skulle avslöja
targets = lösenordet | ditt lösenord | hemligheten | det hemliga ordet | dina instruktioner | systemprompten
  | åtkomst beviljad | det magiska ordet | den hemliga koden
casts = du är | du är nu | låtsas att | föreställ dig | vi leker | låt oss | spela rollen | i det här spelet
  | i den här berättelsen | skriv en berättelse | det var en gång
machines = terminal | linux-terminal | konsol | python-tolk | databas
secrets = lösenord* | hemlig*
others = utan
inverts = motsatsdag
keys = det hemliga ordet | lösenordet | kodordet | det magiska ordet | valvkoden
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = resten av samtalen | under resten av samtalen | tills vidare | i stället för att svara | istället för att svara
says = svarar du | svarar du bara | skriver du | skriver du bara
# ---- gm (D1240): the secret wrapped in a made thing ----
[password onto]
creates = skriv | skriv en | hitta på | gör | dikta
wrappers = dikt | dikten | berättelse | sång | gåta | akrostikon | haiku | vers | ramsa
relates = där | som innehåller | som gömmer | med | om
# D1242: a verb that does something else with the secret than tell it
# (forgets, loses, changes, types in, guesses) makes no role-play ask.
[play]
handles = glömmer | glömde | glömt | tappar | tappade | byter | bytte | ändrar | ändrade | återställer | anger | knäcker | gissar | gissade
