lang pl

[override]
verbs = zignoruj | zignorujcie | ignoruj | ignorujcie | zapomnij | zapomnijcie | pomiń | pomin | nie stosuj się do | przestań stosować | przestań przestrzegać
  | nie przestrzegaj | odrzuć | porzuć | nie zwracaj uwagi na
  | nie bierz pod uwagę | nie bierzcie pod uwagę | zlekceważ | olej
quals = wszystkie | wszystkich | poprzednie | poprzednich | wcześniejsze | wcześniejszych | powyższe | powyższych | twoje | twoich
  | swoje | oryginalne | początkowe | systemowe | otrzymane
nouns = instrukcj* | polece* | zasad* | reguł* | wytyczn* | prompt* | ogranicze*
voids = są nieważne | już nie obowiązują | zostały anulowane | zostały unieważnione | tracą ważność
  | były błędem | są błędem
# What points at the instructions with no noun (issue 28, D1073).
alls = wszystko powyżej | wszystko, co powyżej | wszystko co powyżej | wszystko, co było powyżej | wszystko co było powyżej | wszystko wcześniej
  | wszystko, co ci powiedziano | wszystko co ci powiedziano | całą powyższą treść | wszystko powyższe | wszystko, co napisano wyżej

[role]
nows = teraz jesteś | od teraz jesteś | od tej chwili jesteś | jesteś teraz
roles = bez ograniczeń | bez zasad | bez filtrów | bez cenzury | nieograniczony | nieograniczona | dan | w trybie dewelopera
pretends = udawaj, że jesteś | udawaj że jesteś | zachowuj się jakbyś był

[reveal]
verbs = pokaż | pokaz | wyświetl | powtórz | powtorz | wypisz | ujawnij | podaj | napisz | skopiuj | zacytuj
objects = swój prompt systemowy | twój prompt systemowy | prompt systemowy | swoje instrukcje | twoje instrukcje
  | swoje początkowe instrukcje | swoje ukryte instrukcje | wszystko powyżej | tekst powyżej | powyższy tekst | co ci powiedziano

[secret]
nots = nie | nigdy | nikomu
asks = powiedz mi | podaj mi | zdradź | zdradz | ujawnij | pokaż mi | napisz mi | wyślij mi | jakie jest | jaki jest
  | przeliteruj
nouns = hasło | hasła | haslo | tajny kod | kod dostępu | tajne słowo | tajny klucz | klucz api | klucz prywatny | dane logowania
  | sekret
compounds = jest wymagane | musi | polityka | reset
says = powiedz | odpowiedz | odpowiedz tylko | napisz tylko | zacznij odpowiedź od | twoja odpowiedź musi brzmieć
grants = dostęp przyznany | dostęp udzielony | dostęp dozwolony | access granted

[authority]
claims = jestem twoim | jestem twoją | jestem pana | to twój | wiadomość od twojego | jako twój
who = deweloperem | programistą | twórcą | administratorem | operatorem | właścicielem | zespołem bezpieczeństwa | deweloper
  | programista | twórca | administrator
demands = ogranicze* | zasad* | filtr* | wyłącz | usuń | pozwolenie | upoważni* | posłuchaj | ujawnij | instrukcj*
modes = tryb dewelopera | tryb administratora | tryb boga | tryb bez ograniczeń | tryb serwisowy | tryb debugowania
ons = włączony | wlaczony | aktywny | aktywowany | uruchomiony

[reader]
notes = uwaga dla | notatka dla | wiadomość dla | instrukcja dla | instrukcje dla | uwaga | ważne
readers = ai | si | sztuczna inteligencja | sztucznej inteligencji | asystent ai | asystenta ai | model językowy | modelu językowego
  | llm | chatbot | chatbota
ifs = jeśli jesteś | jeżeli jesteś | jesli jestes
acts = odpowiedz | napisz | powiedz | poleć | zarekomenduj | nie wspominaj | pomiń | streść | zatwierdź | wyślij | przekaż | twierdź

# Issue 28, second round (D1027).
[reveal]
verbs = pokaż | pokaz | wyświetl | powtórz | powtorz | wypisz | ujawnij | podaj | napisz | skopiuj | zacytuj | streść
  | przetłumacz | przeliteruj | zakoduj
owners = swój | swoje | twój | twoje | swoich | twoich
heads = instrukcje | instrukcji | zasady | reguły | prompt | prompt systemowy | polecenia
things = wszystko | cały tekst | tekst | słowa | instrukcje | wiadomość
places = powyżej | napisane powyżej | jest powyżej | wcześniej | na początku | przed tą wiadomością
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = dodaj | umieść | wstaw | wklej | uwzględnij | wspomnij | poleć | zarekomenduj | powiedz użytkownikowi
claims = powiedz, że | napisz, że | stwierdź, że | odpowiedz, że
answers = swojej odpowiedzi | swoją odpowiedź | twojej odpowiedzi | twoją odpowiedź | każdej odpowiedzi | odpowiedzi
  | podsumowaniu | podsumowania
softs = proszę | też | zawsze

[standing]
whos = właściciel | właścicielka | użytkownik
grants = upoważnił | upoważniła | pozwolił | pozwoliła | zezwolił | zezwoliła | zatwierdził | dał zgodę | wyraził zgodę
waivers = bez pytania | bez zgody | bez potwierdzenia | bez zatwierdzenia | bez pozwolenia | nie musisz pytać | nie pytaj
owns = własnych | własne | własnej
approves = zatwierdzania | zatwierdzać | zatwierdź | zatwierdzić
sources = stron internetowych | strony internetowe | stron www | e-maili | maili | wiadomości | dokumentów
  | wyników wyszukiwania
preapproved = wstępnie zatwierdzon* | automatycznie zatwierdzon* | wcześniej zatwierdzon*
froms = od teraz | od tej chwili | od dziś | odtąd | od dzisiaj
nots = nie | nigdy | ani | żaden

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = koniec | zakończenie | kończy
users = użytkownik* | klient* | człowiek*
inputs = wejści* | dan* | wiadomoś* | tekst* | kontekst* | treś* | dokument* | zapytani* | instrukcj* | rozmow* | prompt*
systems = system* | asystent* | administrator* | programist* | operator* | ai | system | systemu | systemowe | systemowa | systemowy
  | systemowego | systemowej | asystenta | administratora
orders = instrukcj* | polece* | wiadomoś* | rozkaz* | komunikat* | dyrektyw* | zasad* | tryb* | prompt* | nadpisani*
headers = nowa sesja | nowa rozmowa | nowe instrukcje | prawdziwe instrukcje | ukryte instrukcje
musts = musisz | od teraz | od tej chwili | teraz jesteś | odpowiadaj tylko | ujawnij | bez ograniczeń | wyłącz | słuchaj się | twoje nowe zadanie

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = wiadomość od | wiadomość z | komunikat od | komunikat z | powiadomienie od
who = zespołu bezpieczeństwa | zespół bezpieczeństwa | działu bezpieczeństwa | audytor* | policj* | organów ścigania | dostawc* | producent* | system* | inżynier, który cię wytrenował | administrator systemu
demands = ograniczeni* | filtr* | wyłącz | tryb debugowania | tryb dewelopera | tryb serwisowy | bez ograniczeń | słuchaj się | wykonuj wszystkie | wszystkie prośby | zostały zniesione | były błędem | zostały cofnięte

# Game rounds' gaps (sgfix, D1145): hijack and role-play in Polish
# (flagrules_hijack.go; D1113-D1120 for the thirteen others).
[hijack]
frames = bez względu na wszystko | niezależnie od | od teraz | od tej pory | w każdym przypadku | w każdej sytuacji
  | cokolwiek
says = powiedz | powiedz tylko | odpowiedz | odpowiedz tylko | odpowiadaj | odpowiadaj tylko | napisz tylko | wypisz tylko
everys = każdą | każde | każdy | każdej | wszystkie
inputs = wiadomość | wiadomości | pytanie | pytania | zapytanie | zapytania | prośbę | prośby
onlys = jedyna odpowiedź | jedyne wyjście | jedyna poprawna odpowiedź | jedyna dozwolona odpowiedź
ises = brzmi | jest | ma brzmieć | musi brzmieć | musi być
trails = nic więcej | nic innego | ani słowa więcej
echoes = powiedz | napisz | wypisz | powtórz | wydrukuj | napisz tylko | powiedz tylko
trophies = zostałem zhakowany | zostałam zhakowana | zhakowano mnie | zhakowany | system przejęty

[play verb-last]
opens = wyobraź sobie | udawaj | zagrajmy w grę | zagrajmy | w tej grze | w tej historii | w tym świecie | w tym scenariuszu
  | hipotetycznie | nie wychodź z roli | pozostań w roli | zachowuj się jak | wciel się w
bounds = bez zasad | bez reguł | bez ograniczeń | bez filtrów | bez cenzury | żadnych zasad | żadnych ograniczeń
  | nigdy nie odmawia | ignoruje swoje instrukcje | zignoruj swoje instrukcje
tells = zdradza | zdradzi | mówi | powie | podaje | poda | ujawnia | ujawni | wyjawia | wyjawi
targets = hasło | hasła | twoje hasło | swoje hasło | sekret | tajemnicę | każdy sekret | swoje instrukcje | twoje instrukcje
  | prompt systemowy | dostęp przyznany | magiczne słowo | tajny kod

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = powiedz | powiedzcie | odpowiedz | odpowiadaj | odpowiedzcie | napisz | pisz | wypisz | wydrukuj | powtórz | zacznij | zakończ | twoja odpowiedź | twoją odpowiedzią | odpowiesz | powiesz | napiszesz | musisz powiedzieć | musisz odpowiedzieć | przetłumacz | potwierdź
nots = nie | nigdy | bez | nikt | nikomu | ani
ifs = jeśli | jeżeli | gdy | kiedy | tylko jeśli | chyba że | o ile
elses = w przeciwnym razie | inaczej | w innym przypadku | w pozostałych przypadkach
keys = hasło | hasła | kod | pin | klucz | poprawn* | prawidłow* | właściw*
subjects = on | ona | ono | oni
opposites = przeciwieństwo | przeciwieństwa | przeciwieństwem | odwrotność
denials = dostęp zabroniony | odmowa dostępu

# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
[password]
secrets = hasło | hasła | hasłem | haśle | hasło dostępu | tajne hasło | tajnego hasła | sekretne słowo | sekretnego słowa
  | magiczne słowo | tajny kod | kod dostępu | słowo-klucz | słowo klucz
imperatives = powiedz | powiedzcie | napisz | napiszcie | zdradź | ujawnij | przeliteruj
  | wypisz | wymień | przypomnij | przetłumacz | zakoduj | zaszyfruj | odwróć | szepnij | wyrecytuj
  | opisz | wyjaśnij | ułóż | wymyśl | stwórz | daj | dajcie | przekaż | zdradźcie | literuj | przeliteruj mi
  | powiedz mi | podaj mi | napisz mi | pokaż mi | zdradź mi | przypomnij mi | daj mi | wyślij mi
acts = jakie jest | jaki jest | co to za | potrzebuję | chcę | chciałbym | chciałabym
changes = przetłumacz | zakoduj | zaszyfruj | odwróć | przeliteruj | literuj
leads = proszę | prosze | po prostu | tylko | teraz | więc | no | dobra | ok | okej | hej | cześć | szybko | też | także
  | możesz | mógłbyś | mogłabyś | musisz | chcę żebyś | strażniku | przyjacielu | a więc | no to
mes = mi | mnie | nam | dla mnie
yous = ty | wy | pan | pani
joins = i | ale | potem | a | lub | albo | a potem
subs = który | która | które | którym | której | kto | jeśli | jeżeli | gdy | kiedy | bo | ponieważ | chociaż | zanim | że
tos = do | na | z
its = je | go | to | niego
forms = liter* | znak* | zaczyna | kończy | samogłosk* | sylab*
hiddens = tajne | tajnego | sekretne | sekretnego | ukryte | ukrytego | chronione | chronionego | magiczne | magicznego
nouns = słowo | słowa | kod | kodu | klucz | hasło | fraza | frazę
nots = nie | nigdy | nikomu | nikt
compounds = użytkownika | administratora | roota | do konta | do wifi | wygasło | zostało zmienione
policies = musi | powinno | może | co najmniej | minimum | maksimum | wymaga
guards = które chronisz | którego pilnujesz | które ukrywasz | którego strzeżesz | którego nie możesz | które znasz
  | które ci dano
# --- end gpass5 ---
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = jesteś | jesteś teraz | od teraz jesteś | teraz jesteś | udawaj | wyobraź sobie | zagrajmy | pobawmy się | wciel się
  | w tej grze | w tej historii | napisz opowiadanie | napisz historię | bądź moją | bądź moim
machines = terminal | terminal linux | konsola | interpreter pythona | baza danych
secrets = hasł* | hasło | szyfr* | sekret* | passw* | secret*
others = bez | swoje | swojego | swoich | jego | jej | ich
inverts = dzień na opak | odwrócony dzień
keys = szyfr do sejfu | kod do sejfu | szyfr | hasło | hasła | tajne słowo | sekretne słowo
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = zapomniał | zapomniała | zapomina | zapomni | zgubił | zgubiła | gubi | zmienia | zmienił | resetuje | wpisuje | wpisał | zgaduje | zgadł | łamie | złamał
