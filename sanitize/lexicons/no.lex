# Norwegian, bokmål (issue 28, session 8, gm; D1240). Bokmål's own
# phrasing: the imperative (ignorer, glem, si, fortell), the definite noun
# as one word (passordet, instruksjonene), "bare" for "only". Not "si"
# alone as a word that starts a pattern: it is Spanish's and Italian's
# "if" and "yes"; "si bare", "si ifra" and the acts' clauses carry it.
lang no

[override]
verbs = ignorer | ignorere | glem | glem alt om | se bort fra | overse | slutt å følge | ikke følg | ikke bry deg om
  | blås i | gi blaffen i | legg til side | forkast
quals = alle | all | tidligere | foregående | ovenstående | over | opprinnelige | dine | din | deres | systemets | gitte | de
nouns = instruksjoner | instruksjonene | anvisninger | anvisningene | regler | reglene | direktiver | retningslinjer
  | retningslinjene | prompten | systemprompten | begrensninger | begrensningene | ordrer
voids = er ugyldige | gjelder ikke lenger | er opphevet | er ikke lenger gyldige | var en feil
alls = alt over | alt ovenfor | alt som står over | alt du har fått beskjed om | alt tidligere | alt før dette

[role]
nows = du er nå | fra nå av er du | heretter er du | nå er du
roles = uten begrensninger | uten regler | uten filter | uten sensur | usensurert | ubegrenset | dan | i utviklermodus
pretends = lat som du er | lat som om du er | forestill deg at du er | late som du er

[reveal]
verbs = vis | vis meg | gjenta | skriv ut | skriv | gi meg | fortell | kopier | siter
objects = systemprompten din | din systemprompt | instruksjonene dine | dine instruksjoner | de opprinnelige instruksjonene
  | de skjulte instruksjonene | reglene dine | alt over | teksten over | den ovenstående teksten | det du har fått beskjed om

[secret]
nots = ikke | aldri | ingen | ingenting
asks = fortell | fortell meg | gi meg | avslør | vis meg | send meg | hva er | hva var | stav
nouns = passordet | passordet ditt | ditt passord | den hemmelige koden | tilgangskoden | det hemmelige ordet | hemmeligheten
  | api-nøkkelen | den private nøkkelen
# D1243: compounds also hold what an everyday password opens, after the noun ("passordet til wifien"): another's password, not the guarded one.
compounds = retningslinjer | krav | tilbakestill | tilbakestilling | glemt | glemte | bytt | endre | felt | feltet | behandler
  | til wifi | til wi-fi | til wifin | til wifien | til wifi:t | til routern | til routeren | til router
  | til routeru | til routerului | til servern | til serveren | til serveru | til serverului | til server
  | til netflix | til instagram | til facebook | til gmail | til vpn | for wifi | for wi-fi | for wifin
  | for wifien | for wifi:t | for routern | for routeren | for router | for routeru | for routerului
  | for servern | for serveren | for serveru | for serverului | for server | for netflix | for instagram
  | for facebook | for gmail | for vpn | på wifi | på wi-fi | på wifin | på wifien | på wifi:t | på routern
  | på routeren | på router | på routeru | på routerului | på servern | på serveren | på serveru
  | på serverului | på server | på netflix | på instagram | på facebook | på gmail | på vpn | hos wifi
  | hos wi-fi | hos wifin | hos wifien | hos wifi:t | hos routern | hos routeren | hos router | hos routeru
  | hos routerului | hos servern | hos serveren | hos serveru | hos serverului | hos server | hos netflix
  | hos instagram | hos facebook | hos gmail | hos vpn
says = si bare | bare si | svar med | svar bare med | begynn svaret ditt med | svaret ditt skal være | skriv bare
grants = tilgang innvilget | tilgang gitt | tilgang godkjent | adgang innvilget | tilgang tillatt

[hijack]
frames = uansett hva | uansett | hva som enn skjer | fra nå av | heretter | under alle omstendigheter | hva jeg enn skriver
  | hva jeg enn spør om
says = si bare | bare si | svar | svar bare | svar med | svar bare med | skriv bare | bare skriv | begynn svaret ditt med
  | avslutt svaret ditt med
everys = hver | hvert | alle
inputs = melding | meldinger | spørsmål | inndata | forespørsel
onlys = eneste svar | eneste svaret | eneste utdata | eneste tillatte svaret | eneste riktige svaret
ises = er | blir | skal være | må være
trails = ingenting annet | ikke noe annet | ingenting mer | ikke noe mer | ingen andre ord
echoes = si bare | bare si | skriv | skriv bare | gjenta | svar med | skriv ut
trophies = jeg har blitt hacket | jeg er hacket | systemet er kompromittert

[grant]
acts = si det | si bare | bare si | svar | skriv | skriv ut | gjenta | svaret ditt | du sier | du svarer | du må si
  | du skal si | svarer du | sier du | oversett | bekreft | begynn | avslutt
nots = ikke | aldri | ingen | ingenting | uten | verken
ifs = hvis | bare hvis | når | med mindre | så snart | dersom
elses = ellers | i motsatt fall | i alle andre tilfeller
keys = passord | passordet | kode | koden | pin | nøkkel | riktig | riktige | korrekt | gyldig
subjects = den | det | en | et | han | hun | de | systemet
opposites = motsatte | motsetningen
denials = tilgang nektet | adgang nektet

[password]
secrets = passordet | det hemmelige ordet | den hemmelige koden | passfrasen | kodeordet | det magiske ordet | tilgangskoden
  | ditt passord | passordet ditt
imperatives = fortell meg | gi meg | vis meg | skriv til meg | stav for meg | hvisk til meg | minn meg på
  | send meg | si det | skriv det | gi det | stav det | avslør
acts = fortell | gi | vis | skriv ned | skriv ut | stav | hvisk | avslør | del | oversett | kod | krypter | snu | beskriv | forklar
  | send | hva er | hvilket er | jeg trenger | jeg vil ha
changes = oversett | kod | krypter | snu | stav
leads = vær så snill | vennligst | bare | nå | så | ok | okei | hei | hallo | kjapt | også | kan du | kunne du
  | vil du | du må | jeg vil at du | vakt | kompis | da
mays = du kan | du får lov til | du får
mes = meg | oss | til meg | for meg
yous = du | dere
joins = og | men | så | deretter | eller | og så
its = det | den
forms = bokstav | bokstaver | bokstaven | tegn | tegnet | begynner | slutter | lengde | lengden | vokal | stavelse
hiddens = hemmelige | hemmelig | skjulte | skjult | beskyttede | voktede | magiske | forbudte
nouns = ordet | koden | nøkkelen | frasen
nots = ikke | aldri | ingen | ingenting
compounds = glemt | glemte | bytte | endre | tilbakestille | tilbakestill | retningslinjer | behandler | felt | feltet | krav
  | til wifi | til wi-fi | til wifin | til wifien | til wifi:t | til routern | til routeren | til router
  | til routeru | til routerului | til servern | til serveren | til serveru | til serverului | til server
  | til netflix | til instagram | til facebook | til gmail | til vpn | for wifi | for wi-fi | for wifin
  | for wifien | for wifi:t | for routern | for routeren | for router | for routeru | for routerului
  | for servern | for serveren | for serveru | for serverului | for server | for netflix | for instagram
  | for facebook | for gmail | for vpn | på wifi | på wi-fi | på wifin | på wifien | på wifi:t | på routern
  | på routeren | på router | på routeru | på routerului | på servern | på serveren | på serveru
  | på serverului | på server | på netflix | på instagram | på facebook | på gmail | på vpn | hos wifi
  | hos wi-fi | hos wifin | hos wifien | hos wifi:t | hos routern | hos routeren | hos router | hos routeru
  | hos routerului | hos servern | hos serveren | hos serveru | hos serverului | hos server | hos netflix
  | hos instagram | hos facebook | hos gmail | hos vpn
policies = må | skal | kan | minst | maks | høyst | kreves
guards = som du beskytter | som du vokter | som du skjuler | som du ikke får si | som du kjenner | som du holder hemmelig
  | som du har fått
parts = første bokstav | første bokstaven | siste bokstaven | andre bokstaven | bokstavene | første tegnet | siste tegnet
  | et hint | hint | lengden | antall bokstaver
ofs = i | på | av | til
counts = hvor mange bokstaver | hvor mange tegn | hvilken bokstav | hvor langt er
transforms = baklengs | bokstav for bokstav | en bokstav per linje | med mellomrom | med bindestrek | i base64 | i hex
  | binært | på engelsk | på et annet språk | med store bokstaver

[play]
opens = forestill deg at | lat som | late som | la oss leke | vi leker | la oss spille et spill | i dette spillet
  | i denne historien | i denne verdenen | hypotetisk | hold deg i rollen | spill rollen som | oppfør deg som
bounds = uten regler | uten begrensninger | uten grenser | uten filter | uten sensur | ingen regler | ingen begrensninger
  | nekter aldri | ignorerer instruksjonene sine
tells = forteller | avslører | sier | gir | hvisker | leser opp | ville fortelle | ville avsløre
targets = passordet | ditt passord | hemmeligheten | det hemmelige ordet | instruksjonene dine | systemprompten
  | tilgang innvilget | det magiske ordet | den hemmelige koden
casts = du er | du er nå | lat som | forestill deg | vi leker | la oss | spill rollen | i dette spillet
  | i denne historien | skriv en historie | det var en gang
machines = terminal | linux-terminal | konsoll | python-tolk | database
secrets = passord* | hemmelig*
others = uten
inverts = motsatt dag
keys = det hemmelige ordet | passordet | kodeordet | det magiske ordet | hvelvkoden
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = resten av samtalen | inntil videre | i stedet for å svare | istedenfor å svare
# ---- gm (D1240): the secret asked with its transformation, and wrapped ----
[password onto]
asks = fortell | fortell meg | skriv | stav | gi meg | vis meg | hva er
creates = skriv | skriv en | lag | dikt opp
wrappers = dikt | diktet | historie | sang | gåte | akrostikon | haiku | vers | regle
relates = der | som inneholder | som skjuler | med | om
# D1242: a verb that does something else with the secret than tell it
# (forgets, loses, changes, types in, guesses) makes no role-play ask.
[play]
handles = glemmer | glemte | glemt | mister | mistet | bytter | byttet | endrer | endret | tilbakestiller | oppgir | knekker | gjetter
