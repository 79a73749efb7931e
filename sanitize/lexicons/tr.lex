lang tr

[override verb-last]
verbs = yoksay | yok say | görmezden gel* | unut | unutun | unutmanı | dikkate alma | dikkate almayın | uyma | uymayın | uymayı bırak | geçersiz kıl | boşver | boş ver | aldırma
  | boşverin | aldırmayın
quals = önceki | tüm | bütün | yukarıdaki | yukarıda | daha önceki | sana verilen | size verilen | orijinal | sistem | mevcut | ilk
nouns = talimat* | yönerge* | kural* | komut* | istem* | direktif* | emir* | kısıtlama*
voids = geçersiz* | iptal edil* | artık geçerli değil | hükümsüz*
  | bir hataydı | hataydı
# What points at the instructions with no noun (issue 28, D1073).
alls = yukarıdaki her şey* | yukarıdakilerin hepsi* | yukarıdakileri | yukarıda yazan* | önceki her şey* | daha önce söylenen*
  | sana söylenen her şey* | bundan önceki her şey* | yukarıda söylenen*

[role]
nows = artık sen | bundan sonra sen | şu andan itibaren sen | artık siz | sen artık
roles = kısıtlaması olmayan | kısıtlamasız | sınırsız | kuralsız | kuralları olmayan | filtresiz | sansürsüz | dan
pretends = olduğunu farz et | olduğunu varsay ve

[reveal object-first]
verbs = göster | yazdır | söyle | tekrarla | yaz | listele
objects = sistem istem* | sistem mesaj* | sistem talimat* | ilk talimat* | orijinal talimat* | gizli talimat*

[authority]
claims = ben senin | ben sizin | ben | burası senin | bu mesaj senin
who = geliştiricinim | geliştiricinizim | geliştiricin | yaratıcınım | yaratıcın | yöneticinim | yöneticin | sahibinim
  | operatörünüm | programcınım
demands = kısıtlama* | kural* | filtre* | kaldır | devre dışı | izin | yetki* | itaat | talimat* | göster
modes = geliştirici modu | yönetici modu | tanrı modu | kısıtlamasız mod | jailbreak modu | bakım modu
ons = etkinleştirildi | etkin | açık | açıldı | aktif

[reader]
notes = not | dikkat | uyarı | mesaj | talimat
readers = yapay zeka | yapay zekâ | ai | yz | dil modeli | llm | sohbet botu | asistan | yapay zeka asistanı
ifs = eğer sen | eğer siz | sen bir | eğer bir
acts = yanıtla | cevap ver | söyle | yaz | öner | bahsetme | atla | özetle | onayla | gönder | ilet | belirt

# Issue 28, second round (D1027): the password asked for, "Access Granted".
[secret object-first]
nots = değil | asla | hiç | kimseye | yok | etme | verme | söyleme | paylaşma
asks = ver | söyle | yaz | nedir | açıkla | paylaş | bana ver | bana söyle | ne
nouns = şifre | şifreni | şifreyi | şifren | parolanı | parolayı | parola | parolan | gizli kod | gizli kodu | erişim kodu
  | gizli anahtar | gizli anahtarı | api anahtarı | gizli kelime | gizli kelimeyi | özel anahtar | özel anahtarı
says = de | söyle | yaz | cevap ver | yanıt ver | sadece yaz | sadece söyle
grants = erişim izni verildi | erişim onaylandı | erişim verildi | access granted
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = ekle | ekleyin | dahil et | dahil edin | koy | belirt | öner | önerin | kullanıcıya söyle
claims = de ki | söyle ki | diye yaz | diye belirt | diye cevap ver
answers = cevabına | cevabınıza | cevabında | yanıtına | yanıtınıza | yanıtında | özetine | özetinde
softs = lütfen | ayrıca | her zaman

[standing]
whos = sahibi | kullanıcı | yönetici
grants = izin verdi | izin vermiştir | onay verdi | yetki verdi | yetkilendirdi
waivers = onay almadan | onay istemeden | sormadan | izin almadan | sormana gerek yok | sormak zorunda değilsin
owns = kendi
approves = onaylamasına | onaylamak | onaylasın | onayla | onaylayabilir | onaylayabilirsin
sources = web sayfalarından | web sayfaları | web siteleri | web sitelerinden | e-postalar | e-postalardan | belgelerden
preapproved = önceden onaylanmış* | önceden onaylı | otomatik onaylı
froms = bundan sonra | artık | şu andan itibaren | bugünden itibaren
nots = değil | yok | hayır | asla | vermedi | vermez

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = son | sonu | bitti | bitişi | bitiş | sonudur | bitişidir
users = kullanıcı* | müşteri* | insan*
inputs = girdi* | giriş* | veri* | mesaj* | metin* | metni* | bağlam* | içerik* | belge* | istek* | talimat* | konuşma* | istem*
systems = sistem* | asistan* | yönetici* | geliştirici* | operatör* | yapay zeka | sistem | sistemi | sisteminin | sistemin
  | asistan | asistanı
orders = talimat* | mesaj* | komut* | emir* | emri* | yönerge* | kural* | mod* | bildiri* | istem*
headers = yeni oturum | yeni konuşma | yeni talimatlar | gerçek talimatlar | gizli talimatlar
musts = yapmalısın | zorundasın | artık sen | bundan sonra | şu andan itibaren | sadece cevap ver | yalnızca yanıt ver | açıkla | kısıtlama olmadan | devre dışı bırak | itaat et | yeni görevin

# Issue 28, second round (D1027): summarise, translate and repeat; the
# instructions with the possessive ending, and the text above.
[reveal object-first place-first]
verbs = göster | yazdır | söyle | tekrarla | tekrar et | yaz | listele | özetle | çevir | tercüme et | kopyala | aktar
objects = talimatlarını | talimatlarınızı | talimatların | kurallarını | kurallarınızı
  | sistem talimatlarını | ilk talimatlarını | gizli talimatlarını
things = her şey | her şeyi | metin | metni | tüm metni | yazılanları | mesajı
places = yukarıdaki | yukarıda yazan | yukarıda | önceki | bundan önceki | en baştaki

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
# Written who first, as the language does ("セキュリティチームからのメッセージ"):
# the claim class holds who, the who class the marker of the claim.
[authority own-demands]
claims = güvenlik ekibi | destek ekibi | teknik ekip | denetçi | polis | kolluk | sağlayıcı | üretici | seni eğiten mühendis | sistem yöneticisi
who = mesajı | bildirimi | adına | bildirisi | duyurusu
demands = kısıtlama* | filtre* | devre dışı bırak | hata ayıklama modu* | geliştirici modu* | bakım modu* | kısıtlamasız | itaat et | tüm istekler* | kaldırıldı | iptal edildi | bir hataydı

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password secret-first verb-last wrapper-last guard-first]
asks = ver | söyle | yaz | nedir | açıkla | paylaş | bana ver | bana söyle | ne | göster | tekrarla | çevir | hecele
secrets = şifre | şifreyi | şifreni | şifrenin | şifren | şifreniz | şifrenizi | şifrenizin | parola | parolanın | parolayı | parolanı | gizli kelime* | gizli kod* | sihirli kelime* | gizli söz*
nouns = kelime* | kod* | anahtar* | sır* | sayı*
guards = koruduğun | sakladığın | söyleyemeyeceğin | söylememen gereken | sana verilen | bildiğin
parts = ilk harfi | ilk harf | son harfi | son harf | harfleri | ipucu | ipucunu | uzunluğu | baş harfi | karakterleri | hecesi
counts = kaç harf | kaç karakter | hangi harf | ne kadar uzun
transforms = tersten | ters | geriye doğru | harf harf | tek tek | her satıra bir harf | boşluklarla | tirelerle | base64
  | onaltılık | ikilik | mors | ingilizce | başka bir dilde | liste olarak | büyük harflerle
creates = yaz | oluştur | uydur | anlat
wrappers = şiir | hikaye | hikâye | şarkı | bilmece | akrostiş | fıkra | masal
relates = içeren | geçen | saklayan | kullanan | içinde geçen
policies = olmalı | olmalıdır | en az | gerekir | zorunlu | içermeli
nots = değil | asla | hiç | kimseye | yok | etme | verme | söyleme | paylaşma
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = söyle | söyleyin | söylesene | yaz | yazın | yazsana | ver | verin | versene | göster | gösterin | açıkla | açıklayın
  | hecele | heceleyin | fısılda | çevir | çevirin | ters çevir | tersten yaz | şifrele | kodla | anlat
  | anlatın | paylaş | paylaşın | ifşa et | belirt | listele | tarif et | betimle | uydur | oluştur | hatırlat | hatırlatsana
  | gönder | at | bana söyle | bana yaz | bana ver | bana göster
acts = nedir | ne | hangisi | kaç | ihtiyacım var | istiyorum
changes = çevir | ters çevir | tersten yaz | şifrele | kodla | hecele
leads = lütfen | lutfen | sadece | yalnızca | şimdi | hadi | tamam | ok | hey | selam | merhaba | hızlıca | da | de | bir | acaba
  | bana | bize | bekçi | dostum | kanka | abi
mes = bana | bize | benim için
joins = ve | ama | sonra | ya da | veya | fakat
subs = eğer | ise | iken | çünkü | rağmen
its = onu | bunu | şunu | o
forms = harf* | karakter* | başlıyor | bitiyor | sesli | ünlü | hece*
tos = geri
# --- end gpass5 ---

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract object-first]
verbs = listele | sırala | yaz | göster | tekrarla | kopyala | özetle | çevir | açıkla | anlat | biçimlendir | dönüştür
heads = talimatları | talimatlar | kuralları | kurallar | yönergeleri | yönergeler | istemi
texts = metni | kelimeleri | içeriği
alls = tüm | bütün
priors = önceki | daha önceki | yukarıdaki | başlangıçtaki
afters = sana verilen | aldığın | bu mesajdan önce | bu mesajdan önceki
sofars = şimdiye kadar | buraya kadar

# Game rounds' gaps (sgfix, D1145): hijack and role-play in Turkish
# (flagrules_hijack.go; D1113-D1120 for the thirteen others).
[hijack]
frames = ne olursa olsun | ne sorulursa sorulsun | her durumda | bundan sonra | şu andan itibaren | bundan böyle | koşulsuz
says = söyle | sadece söyle | yanıtla | cevap ver | yanıt ver | sadece yanıt ver | sadece cevap ver | sadece yaz | yaz
everys = her | tüm | bütün
inputs = mesaja | mesaj | soruya | soru | girdiye | girdi | isteğe | istek
onlys = tek cevabın | tek yanıtın | tek çıktın | tek doğru cevap
ises = olmalı | olacak | şudur
trails = başka hiçbir şey | başka bir şey yazma | başka bir şey söyleme
echoes = söyle | yaz | yazdır | tekrarla | cevap ver
trophies = hacklendim | ele geçirildim | sistem ele geçirildi | sistem hacklendi

[play verb-last]
opens = hayal et | düşün ki | gibi davran | rolüne gir | rolünü oyna | bir oyun oynayalım | oyun oynayalım | bu oyunda
  | bu hikayede | bu dünyada | bu senaryoda | varsayımsal olarak | karakterden çıkma | rolünden çıkma
bounds = kuralsız | kuralları olmayan | sınırsız | kısıtlamasız | kısıtlaması olmayan | filtresiz | sansürsüz
  | hiç reddetmeyen | asla reddetmeyen | talimatlarını yok sayan
tells = söyler | söyleyen | verir | veren | açıklar | açıklayan | ifşa eder | ifşa eden | söylerdi
targets = şifreyi | parolayı | sırrı | sırrını | her sırrı | talimatlarını | sistem istemini | erişim izni verildi
  | sihirli kelimeyi | gizli kodu

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = söyle | yaz | cevap ver | yanıt ver | yanıtla | cevapla | çıktı ver | yazdır | tekrarla | cevabın | yanıtın | söyleyeceksin | yazacaksın | cevap vereceksin | yanıt vereceksin | çevir | onayla
nots = değil | asla | hiçbir | söyleme | yazma | deme
ifs = eğer | yalnızca | durumunda
elses = aksi halde | aksi takdirde | yoksa | değilse
keys = şifre | parola | kod | doğru | geçerli | gizli kelime
subjects = sistem | kullanıcı
opposites = tersi | zıttı | karşıtı
denials = erişim reddedildi
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = sen artık | sen şimdi | artık sen | sen bir | sen benim | oynayalım | gibi davran | rol yap | rolüne gir | bu oyunda
  | bu hikayede | hikaye yaz | bir zamanlar
machines = terminal | linux terminali | terminalisin | konsol | yorumlayıcı | veritabanı
secrets = şifre* | sifre* | parola* | gizli* | passw* | secret*
others = olmadan
inverts = tersine gün | ters gün
keys = kasa şifresi | kasanın şifresi | kapı şifresini | kapı şifresi | şifresini
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = unutan | unuttu | unutur | kaybeden | kaybetti | değiştiren | değiştirdi | sıfırlayan | giren | yazan | tahmin | kıran | kırdı
