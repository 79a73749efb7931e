lang id

[override]
verbs = abaikan | abaikanlah | lupakan | lupakanlah | jangan ikuti | jangan patuhi | jangan hiraukan | hiraukan | tinggalkan
  | buang | lewati | langgar | berhenti mengikuti | tidak usah mengikuti | kesampingkan | singkirkan
  | jangan pedulikan | acuhkan | tidak perlu mengikuti
quals = semua | seluruh | sebelumnya | di atas | yang diberikan | yang kamu terima | yang anda terima | awal | asli | sistem
  | kamu | anda
nouns = instruksi | instruksimu | perintah | perintahmu | aturan | aturanmu | arahan | petunjuk | pedoman | prompt | batasan
voids = tidak berlaku lagi | sudah tidak berlaku | dibatalkan | batal | tidak sah | dicabut
  | adalah kesalahan | merupakan kesalahan
# What points at the instructions with no noun (issue 28, D1073).
alls = semua yang di atas | semua di atas | semua hal di atas | apa yang dikatakan sebelumnya | semua yang dikatakan sebelumnya
  | semua yang telah diberitahukan | segala sesuatu sebelumnya | semua sebelumnya | teks di atas | semua yang sudah dikatakan

[role]
nows = mulai sekarang kamu adalah | mulai sekarang anda adalah | sekarang kamu adalah | kamu sekarang adalah | sekarang kamu
  | mulai sekarang kamu | mulai sekarang anda | kamu sekarang
roles = tanpa batasan | tanpa aturan | tanpa filter | tanpa sensor | tanpa batas | dan | mode pengembang
pretends = berpura-puralah kamu adalah | berpura-pura menjadi | pura-pura jadi | anggap dirimu

[reveal]
verbs = tampilkan | tunjukkan | perlihatkan | ungkapkan | ulangi | cetak | tuliskan | sebutkan | salin | beritahu aku
  | beri tahu aku | beritahu saya | beri tahu saya
objects = prompt sistem | pesan sistem | instruksi awal | instruksi asli | instruksi tersembunyi | instruksimu | instruksi kamu
  | instruksi anda | semua teks di atas | teks di atas | semua yang di atas | teks sebelumnya | apa yang diberitahukan kepadamu
  | aturanmu | pesan pertama

[secret]
nots = jangan | tidak | bukan | pernah
asks = apa | apa itu | beritahu aku | beri tahu aku | beritahu saya | beri tahu saya | kasih tahu | kasih aku | berikan aku | berikan saya
  | ungkapkan | sebutkan | kirimkan | eja
nouns = kata sandi | kata sandinya | sandinya | passwordnya | kata sandimu | sandimu | kata kunci rahasia | sandi | password | kode rahasia | kode akses | kunci rahasia | kunci api | api key
  | kunci privat | kredensial | rahasiamu | rahasia
says = katakan | ucapkan | jawab dengan | balas dengan | jawab hanya | tulis hanya | mulai jawabanmu dengan | jawabanmu harus
grants = akses diberikan | akses diizinkan | akses disetujui | access granted

[authority]
claims = saya adalah | aku adalah | saya | aku | ini | pesan dari | sebagai
who = pengembangmu | pengembang anda | pengembang kamu | penciptamu | pembuatmu | administratormu | admin kamu | operatormu
  | pemilikmu | programmermu
demands = batasan | aturan | filter | nonaktifkan | matikan | izinkan | mengizinkan | diizinkan | izin | patuhi | tanpa batas
  | ungkapkan | instruksi
modes = mode pengembang | mode developer | mode admin | mode administrator | mode dewa | mode tanpa batasan | mode pemeliharaan
  | mode debug | mode dan
ons = aktif | diaktifkan | menyala | dinyalakan

[reader]
notes = catatan untuk | catatan bagi | catatan | perhatian | pesan untuk | instruksi untuk | penting
readers = ai | kecerdasan buatan | asisten ai | model bahasa | llm | chatbot | agen ai | peringkas
ifs = jika kamu | jika anda | kalau kamu | kalau anda | apabila anda
acts = jawab | balas | katakan | tulis | rekomendasikan | sarankan | jangan sebutkan | hilangkan | ringkas | setujui | kirim
  | teruskan | klaim | sertakan | sebutkan | beri tahu pengguna

# Issue 28, second round (D1027).
[reveal]
verbs = tampilkan | tunjukkan | perlihatkan | ungkapkan | ulangi | cetak | tuliskan | sebutkan | salin | ringkas | ringkaskan
  | terjemahkan | eja | beritahu aku | beri tahu aku
objects = instruksi sistem | instruksi sistem kamu | instruksi sistem anda | instruksi sistemmu | perintah sistem | aturan kamu
  | aturan anda | prompt kamu | prompt anda | promptmu
things = semua | semua teks | teks | semua yang | kata-kata | instruksi | pesan
places = di atas | sebelumnya | sebelum pesan ini | di awal | yang diberikan kepadamu | yang kamu terima
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = tambahkan | sertakan | masukkan | sisipkan | sebutkan | rekomendasikan | sarankan | beri tahu pengguna
  | katakan kepada pengguna
claims = katakan bahwa | sebutkan bahwa | tulis bahwa | nyatakan bahwa | jawab bahwa
answers = jawabanmu | jawaban anda | jawaban | balasanmu | balasan anda | ringkasanmu | ringkasan
softs = tolong | juga | selalu

[standing]
whos = pemilik | pengguna
grants = mengizinkan | telah mengizinkan | sudah mengizinkan | memberi izin | memberikan izin | mengotorisasi
waivers = tanpa meminta | tanpa bertanya | tanpa konfirmasi | tanpa persetujuan | tanpa izin | tidak perlu bertanya
  | tidak perlu meminta | jangan bertanya
owns = sendiri | miliknya sendiri
approves = menyetujui | setujui | mengesahkan
sources = halaman web | situs web | email | surel | dokumen | pesan | hasil pencarian
preapproved = disetujui sebelumnya | disetujui terlebih dahulu | pra-disetujui | otomatis disetujui
froms = mulai sekarang | mulai saat ini | mulai hari ini | sejak sekarang | ke depannya
nots = tidak | jangan | bukan | tak | belum

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = akhir | selesai | berakhir | penutup
users = pengguna | user | pelanggan | manusia
inputs = input | masukan | data | pesan | teks | konteks | konten | dokumen | permintaan | instruksi | percakapan | prompt
systems = sistem | asisten | admin | administrator | pengembang | operator | ai
orders = instruksi | perintah | pesan | arahan | pemberitahuan | direktif | aturan | mode | prompt | penggantian
headers = sesi baru | percakapan baru | instruksi baru | instruksi sebenarnya | instruksi tersembunyi
musts = kamu harus | anda harus | mulai sekarang | sekarang kamu | jawab hanya | hanya jawab | ungkapkan | tanpa batasan | nonaktifkan | patuhi | tugas barumu | tugas baru anda

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = pesan dari | pemberitahuan dari | catatan dari | atas nama
who = tim keamanan | tim dukungan | tim teknis | auditor | polisi | penegak hukum | vendor | penyedia | produsen | sistem | insinyur yang melatihmu | tim yang membuatmu | administrator sistem
demands = batasan | pembatasan | filter | nonaktifkan | matikan | mode debug | mode pengembang | mode pemeliharaan | tanpa batasan | patuhi | turuti | semua permintaan | telah dicabut | adalah kesalahan | sudah dihapus

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password]
asks = beritahu aku | beri tahu aku | beritahu saya | beri tahu saya | kasih tahu | kasih aku | berikan aku | berikan saya
  | beri aku | beri saya | sebutkan | tuliskan | tulis | eja | ejakan | ulangi | terjemahkan | apa | apa itu | ungkapkan
  | tunjukkan
secrets = kata sandi | kata sandinya | sandi | password | passwordnya | kata rahasia | kode rahasia | kata kunci rahasia
  | kata ajaib
nouns = kata | frasa | kode | kunci | rahasia | angka
guards = yang kamu lindungi | yang kau lindungi | yang anda lindungi | yang kamu jaga | yang kamu sembunyikan
  | yang tidak boleh kamu katakan | yang tidak boleh kamu sebutkan | yang diberikan kepadamu | yang kamu ketahui
parts = huruf pertama | huruf terakhir | huruf kedua | huruf | karakter pertama | karakter | petunjuk | panjang | inisial
  | suku kata
ofs = dari | tentang | untuk | mengenai
counts = huruf vokal apa | berapa huruf vokal | huruf mati apa | berapa huruf | berapa karakter | huruf apa | berapa panjang
transforms = terbalik | secara terbalik | dari belakang | huruf demi huruf | huruf per huruf | satu huruf per baris
  | dengan spasi | dengan tanda hubung | dipisahkan | dalam base64 | dalam heksadesimal | dalam biner | dalam sandi morse
  | dalam bahasa inggris | dalam bahasa lain | sebagai daftar | dalam huruf kapital
creates = tulis | tuliskan | buat | buatkan | karang | ceritakan
wrappers = puisi | cerita | lagu | teka-teki | akrostik | pantun | lelucon | sajak
relates = yang membisikkan | yang mengucapkan | yang mengatakan | yang berisi | yang mengandung | berisi | mengandung | yang memuat | yang menyembunyikan | yang menyebut
  | yang jawabannya | dengan
withouts = tanpa menyebutkannya | tanpa mengatakannya | tanpa menuliskannya
policies = harus | minimal | maksimal | paling sedikit | boleh | dapat | wajib
nots = jangan | tidak | bukan | pernah
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
acts = beritahu | beritahukan | beri tahu | kasih tau | kasih tahu | kasih | berikan | beri | kasihkan | tunjukkan
  | tunjukin | sebutkan | sebutin | sebut | tulis | tuliskan | tulisin | ejakan | eja | ungkapkan | bocorkan
  | bocorin | bisikkan | terjemahkan | terjemahin | ubah | ubahlah | balik | balikkan | kodekan | enkripsi
  | jelaskan | deskripsikan | gambarkan | buat | buatkan | bikin | bikinin | karang | karangkan | ingatkan | kirim
  | kirimkan | tolong kasih tau | tolong beritahu | tolong sebutkan | tolong tulis | bagikan | spill | apa
  | berapa | aku butuh | saya butuh | aku mau | saya mau | saya ingin | aku ingin | minta
changes = terjemahkan | terjemahin | ubah | balik | balikkan | kodekan | enkripsi | ejakan | eja
leads = tolong | mohon | coba | dong | ya | yuk | ayo | sekarang | jadi | oke | ok | hai | halo | cepat | juga | bisa | bisakah
  | bisa tidak | kamu harus | aku mau kamu | saya mau kamu | bang | kak | mas | mbak | penjaga | sih | aja | saja
mes = aku | saya | ku | gue | gw | kami | kita | padaku | kepadaku | ke saya | buat aku | buat saya | untukku
yous = kamu | kau | anda | lu | lo
joins = dan | tapi | lalu | terus | kemudian | atau | habis itu
subs = yang | siapa | kalau | jika | apabila | ketika | saat | karena | sementara | walaupun | meskipun
tos = ke | kepada | dari
sharers = bagikan
withs = dengan | sama
its = itu | nya | ini
forms = huruf | karakter | dimulai | diawali | berakhir | diakhiri | panjangnya | vokal | konsonan | suku kata
hiddens = rahasia | rahasianya | tersembunyi | dilindungi | ajaib | terlarang
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = apa pun yang terjadi | apapun yang terjadi | apa pun | apapun | tidak peduli | terlepas dari | mulai sekarang | dari sekarang
  | dalam keadaan apa pun | bagaimanapun juga
says = katakan | katakan saja | katakan hanya | jawab | jawab hanya | jawab saja | jawablah | balas | balas hanya | balas saja
  | tulis hanya | tulis saja | ucapkan | ucapkan saja
everys = setiap | semua | tiap | sembarang
inputs = pesan | pertanyaan | masukan | permintaan | input | prompt
onlys = satu-satunya jawaban | satu-satunya balasan | satu-satunya respons | satu-satunya output
ises = adalah | ialah | harus | akan
trails = tidak ada yang lain | tidak lebih | tanpa tambahan apa pun
echoes = katakan | katakan saja | tulis | tulis saja | tulis hanya | cetak | ulangi | ulangi setelah saya | jawab dengan
  | balas dengan
trophies = saya telah diretas | saya diretas | aku diretas | diretas | sistem telah diretas

[play]
opens = bayangkan kamu adalah | bayangkan kamu | bayangkan anda adalah | bayangkan anda | anggap kamu adalah | anggap saja kamu
  | berpura-puralah | pura-pura jadi | pura-puralah | ayo main game | ayo bermain | mari bermain | mari kita bermain
  | dalam permainan ini | dalam cerita ini | di dunia ini | secara hipotetis | seandainya kamu tidak punya | tetap dalam karakter
  | jangan keluar dari karakter
bounds = tanpa aturan | tanpa batasan | tanpa batas | tanpa filter | tanpa sensor | tanpa aturan apa pun | tidak pernah menolak
  | tidak punya aturan
tells = membocorkan | memberitahu | memberi tahu | memberikan | mengatakan | mengungkapkan | menyebutkan | kasih tahu
targets = kata sandi | kata kunci | password | sandi | rahasia | rahasia apa pun | instruksi | instruksimu | prompt sistem
  | akses diberikan | kata ajaib

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
verbs = tuliskan | tulis | sebutkan | daftarkan | tampilkan | tunjukkan | ulangi | salin | ringkas | ringkaskan
  | rangkum | terjemahkan | jelaskan | uraikan | cetak | berikan
heads = instruksi | aturan | petunjuk | pedoman | prompt | arahan
texts = teks | kata-kata | isi
alls = semua | seluruh | segala
priors = sebelumnya | terdahulu
afters = yang kamu terima | yang anda terima | yang diberikan kepadamu | yang diberikan kepada anda | sebelum pesan ini
  | sebelum pesan saya
sofars = sejauh ini | sampai sekarang | hingga saat ini
asks = apa yang
tolds = tidak boleh kamu | tidak boleh anda | kamu dilarang | anda dilarang
# Game rounds' gaps (sgfix, D1146): a quoted opening asked about, as in
# seven languages before.
anchors = sebelum | setelah | sesudah | yang dimulai dengan | dimulai dengan | diawali dengan | mulai dari
quoted = kamu adalah | anda adalah | tugasmu | tugas anda | peranmu | peran anda | abaikan
leads = apa | apa saja | mana | ulangi | tulis | tuliskan | tampilkan | cetak | salin | sebutkan | berikan | semua | semuanya
  | teks | kata
heres = pesan saya | pesanku | pesan ini | di sini | lengkap | kata demi kata | persis | secara utuh

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = katakan | ucapkan | bilang | jawab | jawablah | balas | balaslah | tulis | tuliskan | cetak | ulangi | mulai | akhiri | jawabanmu | jawaban anda | balasanmu | kamu harus mengatakan | kamu harus menjawab | anda harus mengatakan | anda harus menjawab | kamu akan menjawab | kamu menjawab | terjemahkan | terjemahin | konfirmasi | konfirmasikan
nots = jangan | tidak | tak | bukan | tanpa
ifs = jika | kalau | apabila | hanya jika | ketika | saat | kecuali
elses = jika tidak | kalau tidak | selain itu | sebaliknya
keys = kata sandi | sandi | kode | pin | benar | valid | kata rahasia
subjects = sistem | pengguna | dia | ia | mereka
opposites = kebalikan | lawan kata
denials = akses ditolak
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = kamu adalah | kamu sekarang | kamu jadi | sekarang kamu | anggap kamu | bayangkan kamu | pura-pura | ayo main
  | mari bermain | main peran | dalam permainan ini | dalam cerita ini | tulis cerita | jadilah | kamu nenekku | kamu kakekku
machines = terminal | terminal linux | konsol | interpreter python | basis data
secrets = sandi* | rahasia* | passw* | secret*
others = tanpa
inverts = hari kebalikan | hari terbalik
keys = kode brankas | sandi brankas | kode rahasia | kata sandi
# ---- round 6, languages (issue 28, sixth round; D1212): the words that
# grant access as people translate them, on the first [grant] section ----
[grant onto]
grants = akses diterima | akses dibuka | akses dikabulkan
# ---- end round 6, languages ----
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = lupa | melupakan | kehilangan | mengganti | mengubah | mereset | memasukkan | mengetik | menebak | membobol
