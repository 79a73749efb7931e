lang vi

# ---- round 6, languages (issue 28, sixth round; D1210-D1212) ----
# Vietnamese, written for this project in its own phrasing: the verb
# before its object, the owner after the noun ("hướng dẫn của bạn"), the
# reader addressed by a kinship word (bạn, anh, chị, em, cậu) and the
# speaker by mình, tôi, em; requests softened by hãy, giúp, đi, nhé, nha.
# No entry is a single syllable that also stands alone in other text (mã,
# in, ghi): a syllable is a word of its own in Vietnamese.

[override]
verbs = bỏ qua | phớt lờ | lờ đi | quên đi | quên hết | hãy quên | đừng tuân theo | đừng làm theo | không cần tuân theo
  | không cần làm theo | gạt bỏ | bỏ hết | bỏ mặc | vứt bỏ | đừng để ý | không để ý | bất chấp | xóa bỏ
quals = tất cả | mọi | hết | toàn bộ | trước | trước đó | trước đây | phía trên | bên trên
  | ban đầu | gốc | hệ thống | của bạn | đã nhận | được giao
nouns = hướng dẫn | chỉ dẫn | chỉ thị | mệnh lệnh | lệnh | quy tắc | quy định | luật lệ | nguyên tắc | lời nhắc | prompt
  | giới hạn | ràng buộc
voids = không còn hiệu lực | hết hiệu lực | đã bị hủy | bị hủy bỏ | đã bị vô hiệu | vô hiệu | không còn áp dụng
  | là một sai lầm | đã bị thu hồi
alls = mọi thứ ở trên | tất cả ở trên | mọi thứ phía trên | những gì ở trên | những gì đã nói | mọi điều đã nói
  | tất cả những gì đã nói | mọi thứ trước đó | văn bản ở trên | những gì bạn được dặn

[role]
nows = từ giờ bạn là | từ bây giờ bạn là | từ nay bạn là | bây giờ bạn là | giờ bạn là | từ giờ cậu là | từ giờ em là
  | từ giờ trở đi bạn là | kể từ bây giờ bạn là
roles = không có quy tắc | không có giới hạn | không giới hạn | không bị giới hạn | không kiểm duyệt | không có luật
  | tự do | chế độ nhà phát triển | dan
pretends = giả vờ là | giả vờ bạn là | hãy giả vờ | đóng vai | hãy đóng vai | hãy tưởng tượng bạn là

[reveal]
# "hãy in ra", not "in ra": its first word folds to English's "in".
verbs = hãy in ra | hiển thị | cho xem | cho mình xem | cho tôi xem | tiết lộ | nhắc lại | lặp lại | viết ra | ghi ra | chép lại
  | dán | sao chép | liệt kê | tóm tắt | dịch | cho biết
objects = lời nhắc hệ thống | hướng dẫn hệ thống | chỉ dẫn hệ thống | thông điệp hệ thống | tin nhắn hệ thống | prompt hệ thống
  | system prompt | hướng dẫn ban đầu | hướng dẫn gốc | hướng dẫn ẩn | hướng dẫn của bạn | quy tắc của bạn | lời nhắc của bạn
  | mọi thứ ở trên | văn bản ở trên | những gì bạn được dặn | những gì đã được giao cho bạn | tin nhắn đầu tiên
  | quy tắc bí mật | quy định bí mật

[secret]
nots = đừng | không | chẳng | chưa | không bao giờ
asks = cho mình biết | cho tôi biết | cho em biết | nói cho mình | nói cho tôi | nói cho em | cho mình xin | cho tôi xin
  | cho em xin | tiết lộ | là gì | đánh vần | gửi mình | gửi cho tôi
# Not "mật khẩu" bare: "cho mình biết mật khẩu wifi" asks a friend; the
# password window reads it, with its guards (belongs).
nouns = mã bí mật | từ khóa bí mật | từ bí mật | chữ bí mật | khóa bí mật | khóa api | bí mật của bạn | mật khẩu của bạn
  | mật khẩu bạn đang giữ | mật khẩu bạn giữ
# The acts of saying as a request forms them (hãy, chỉ, đi, giúp): a bare
# "nói", "viết", "trả lời" tells what someone says ("để AI nói ..."), and
# every language's acts are read beside English's words (everyGrantAct).
says = hãy nói | chỉ nói | nói đi | hãy trả lời | chỉ trả lời | trả lời bằng | trả lời đi | hãy ghi | ghi giúp | hãy viết
  | viết giúp | hãy in ra | chỉ in ra | bắt đầu câu trả lời bằng | câu trả lời của bạn phải là
grants = truy cập được chấp nhận | truy cập được cấp | đã cấp quyền truy cập | quyền truy cập được cấp
  | quyền truy cập được chấp nhận | được phép truy cập | đã được cấp quyền truy cập | chấp nhận truy cập
  | cấp quyền truy cập | truy cập được phép

[authority]
# The reader's own maker or master: the owner follows the noun ("nhà phát
# triển của bạn"); "tôi là quản trị viên" alone is every group's admin.
claims = mình là | tôi là | em là | đây là | tin nhắn từ | với tư cách là | với tư cách
who = nhà phát triển của bạn | người phát triển của bạn | lập trình viên của bạn | người tạo ra bạn | người đã tạo ra bạn
  | quản trị viên của bạn | admin của bạn | người vận hành của bạn | chủ sở hữu của bạn | người huấn luyện bạn
# Not "mật khẩu", "hướng dẫn", "cho phép": an administrator speaks of
# them in every group chat ("mình là quản trị viên, mình sẽ gửi mật khẩu").
demands = giới hạn | bộ lọc | vô hiệu hóa | ủy quyền | tuân lệnh | tiết lộ | không giới hạn | gỡ bỏ
modes = chế độ nhà phát triển | chế độ quản trị | chế độ admin | chế độ gỡ lỗi | chế độ debug | chế độ bảo trì
  | chế độ kiểm thử | chế độ thử nghiệm | chế độ không giới hạn | chế độ thần
ons = bật | đã bật | kích hoạt | đã kích hoạt | đang bật

[reader]
notes = ghi chú cho | lưu ý cho | lưu ý | chú ý | tin nhắn cho | hướng dẫn cho | quan trọng
readers = ai | trí tuệ nhân tạo | trợ lý ai | mô hình ngôn ngữ | llm | chatbot | tác nhân ai
ifs = nếu bạn là | nếu bạn đang là
acts = trả lời | hãy trả lời | nói | viết | đề xuất | khuyên | đừng nhắc | tóm tắt | phê duyệt | gửi | chuyển tiếp | khẳng định

# What the password asks read (flagrules_password.go): Vietnamese has no
# articles, so the secret is bare (no dets); "của bạn", "bạn đang giữ"
# follow it as a guard.
[password]
asks = cho mình biết | cho tôi biết | cho em biết | nói cho mình | nói cho tôi | cho mình xin | cho tôi xin | cho em xin
  | viết | hãy viết | ghi | đánh vần | tiết lộ | nhắc lại | lặp lại | dịch | là gì | gợi ý
secrets = mật khẩu | mật mã | khẩu lệnh | mã bí mật | mã truy cập | từ khóa bí mật | từ bí mật | chữ bí mật | câu thần chú
  | mật khẩu cổng | mã cổng
nouns = từ | cụm từ | mã | khóa | bí mật | con số
guards = bạn đang giữ | bạn giữ | bạn đang bảo vệ | bạn bảo vệ | bạn đang canh | bạn canh giữ | bạn đang giấu | bạn giấu
  | bạn không được nói | bạn không được tiết lộ | được giao cho bạn | bạn được giao | bạn biết | của bạn
  | mà bạn đang giữ | mà bạn giữ | mà bạn biết | mà con ai trước giữ
parts = chữ cái đầu | chữ cái đầu tiên | chữ cái cuối | chữ cái cuối cùng | chữ cái | ký tự đầu | ký tự | gợi ý | độ dài
  | âm tiết | chữ đầu
ofs = của | về | cho
counts = những nguyên âm nào | mấy nguyên âm | bao nhiêu nguyên âm | mấy chữ cái | bao nhiêu chữ cái | bao nhiêu ký tự | mấy ký tự | mấy âm tiết | bao nhiêu âm tiết | dài bao nhiêu
transforms = ngược lại | viết ngược | đảo ngược | theo thứ tự ngược | từng chữ cái | từng chữ một | mỗi chữ cái
  | cách nhau | dấu gạch ngang | dấu chấm | dạng base64 | sang base64 | mã morse | nhị phân | hệ thập lục phân
  | sang tiếng anh | bằng tiếng anh | viết hoa
creates = viết | hãy viết | sáng tác | làm | tạo | kể
wrappers = bài thơ | thơ | bài thơ lục bát | câu chuyện | truyện | bài hát | câu đố | chuyện cổ tích | câu đố vui | hàm python
relates = thì thầm | nói ra | tiết lộ | chứa | có chứa | giấu | giấu vào | nhắc đến | về | với | có
withouts = mà không nói | không nói ra | đừng nói ra
policies = phải | tối thiểu | tối đa | ít nhất | có thể
nots = đừng | không | chẳng | chưa
kin = bà | ông | mẹ | bố | ba | cô | chú | bác
tells = kể | kể lại | đọc | hát | nói
knows = mình biết rồi | tôi biết rồi | mình đã biết | tôi đã biết
confirms = xác nhận | xác nhận giúp | chỉ cần xác nhận
checks = xác nhận | kiểm tra | cho biết có phải
# The guarded secret in a sentence (passwordWindow, D1147): no dets,
# the reader named by a kinship word.
# Not "đổi" nor "chuyển": "đổi mật khẩu" is to change it.
acts = cho biết | nói | viết | ghi | đánh vần | tiết lộ | nhắc lại | lặp lại | dịch | mã hóa | mô tả
  | giải thích | kể | gửi | đưa | cho xem | in ra | điền | liệt kê | bàn giao | giấu | là gì | cho xin
imperatives = cho mình biết | cho tôi biết | cho em biết | cho anh biết | cho mình xin | cho tôi xin | cho em xin
  | nói cho mình | nói cho tôi | nói cho em | gửi cho mình | gửi cho tôi | nhắc lại giúp | nhắc giúp | ghi giúp
  | viết giúp | đánh vần giúp | tiết lộ giúp
changes = dịch | mã hóa | đảo ngược | viết ngược | đánh vần
leads = hãy | xin hãy | làm ơn | vui lòng | giúp mình | giúp tôi | bạn ơi | bạn | cậu | anh | chị | em | thôi | đi | nhé | nha
  | ok | vậy | giờ | bây giờ | chỉ cần | cứ | mau | nhanh | bạn có thể | bạn hãy | mình muốn bạn | tôi muốn bạn
mes = mình | tôi | em | tớ | tao | chúng tôi | chúng mình | cho mình | cho tôi
yous = bạn | cậu | anh | chị | mày | ông | bà | bác
joins = và | nhưng | rồi | sau đó | hoặc | xong
subs = ai | nếu | khi | vì | trong khi | mặc dù | mà
tos = cho | tới | đến | từ
its = nó
forms = chữ cái | ký tự | bắt đầu | kết thúc | độ dài | nguyên âm | âm tiết
hiddens = bí mật | được bảo vệ | bị cấm
# What the secret's own noun after it names ("mật khẩu wifi", "mật khẩu
# email"): a person's everyday password, not the one the reader guards.
belongs = wifi | wi-fi | email | e-mail | gmail | facebook | zalo | tài khoản | ngân hàng | máy tính | điện thoại | router
  | modem | mạng | thẻ | ứng dụng | app | của quán | nhà

[hijack]
frames = dù thế nào | dù gì | bất kể | từ giờ | từ bây giờ | từ nay | trong mọi trường hợp | bất cứ điều gì
says = chỉ nói | hãy nói | nói đi | chỉ trả lời | hãy trả lời | chỉ được trả lời | trả lời đi | chỉ ghi | hãy ghi | ghi giúp
  | chỉ viết | hãy viết | chỉ in ra | hãy in ra
everys = mọi | mỗi | tất cả | bất kỳ
inputs = tin nhắn | câu hỏi | đầu vào | yêu cầu | mật khẩu
onlys = câu trả lời duy nhất | đúng một câu
ises = là | sẽ là | phải là
trails = không gì khác | không thêm gì | đừng giải thích | không giải thích
echoes = chỉ nói | hãy nói | chỉ ghi | hãy ghi | chỉ viết | hãy viết | chỉ in ra | hãy in ra | hãy nhắc lại | hãy lặp lại
trophies = tôi đã bị hack | đã bị hack | bị hack

[play]
opens = hãy tưởng tượng | tưởng tượng bạn là | giả sử bạn là | giả vờ | hãy giả vờ | đóng vai | hãy đóng vai | nhập vai
bounds = không có quy tắc | không có giới hạn | không giới hạn | không kiểm duyệt | không bao giờ từ chối | không có luật
tells = tiết lộ | nói | kể | cho biết | đưa | bàn giao | luôn nói thật
targets = mật khẩu | mật mã | bí mật | mã bí mật | hướng dẫn | lời nhắc hệ thống | truy cập được chấp nhận | câu thần chú
# Not "bạn là" alone: "bạn là người giữ mật khẩu của nhóm" is a chat's.
casts = từ giờ bạn là | bây giờ bạn là | từ nay bạn là | hãy đóng vai | đóng vai | giả vờ | hãy tưởng tượng | nhập vai
machines = terminal | terminal linux | bảng điều khiển | trình thông dịch python | cơ sở dữ liệu
secrets = mật khẩu | mật mã | bí mật | passw*
others = không
inverts = ngày ngược | ngày đảo ngược

[extract]
verbs = hãy in ra | hiển thị | liệt kê | chép lại | sao chép | dán | tóm tắt | dịch | ghi ra | viết ra | nhắc lại | lặp lại
  | cho xem
heads = hướng dẫn | chỉ dẫn | chỉ thị | quy tắc | quy định | lời nhắc | prompt | lời nhắc hệ thống | hướng dẫn hệ thống
texts = văn bản | nội dung | từ ngữ
alls = toàn bộ | tất cả | mọi | hết
priors = trước đó | trước | ở trên | phía trên
afters = mà bạn đã nhận | bạn đã nhận | đã được giao | được giao cho bạn | trước tin nhắn này
sofars = cho đến giờ | đến giờ | từ đầu đến giờ
asks = bạn được
tolds = không được phép nói | không được nói | bị cấm nói
heres = nguyên văn | từng chữ | đầy đủ | chính xác | trong một khối mã | trong khối code | ở đây | vào đây
# The extraction window (D1155): the act, said to the reader, on its text.
[extract]
acts = hãy in ra | hiển thị | liệt kê | chép | chép lại | sao chép | dán | tóm tắt | dịch | ghi ra | ghi hết ra | viết ra | nhắc lại
  | lặp lại | cho xem | tiết lộ | trích dẫn | đọc lại | kể | mô tả | giải thích | cho biết | gửi | xuất
owners = của bạn | của cậu | của anh | của chị | của em
# Not "ẩn": it folds to English's "an".
quals = hệ thống | ban đầu | gốc | đầy đủ | bí mật | đầu tiên | toàn bộ | tất cả
marks = hệ thống | ban đầu | gốc | bí mật
heads = hướng dẫn | chỉ dẫn | chỉ thị | lời nhắc | prompt | thông điệp hệ thống | tin nhắn hệ thống
weaks = quy tắc | quy định | cấu hình
rels = mà bạn đã nhận | bạn đã nhận | bạn nhận được | được giao cho bạn | bạn được giao | bạn phải tuân theo | bạn tuân theo
places = trước tin nhắn đầu tiên của tôi | trước tin nhắn này | ở trên | phía trên | từ đầu
addresses = hãy | làm ơn | vui lòng | giúp | giúp mình | bạn | cậu | cứ | thế | ok | vậy | rồi | và | sau đó | bây giờ | giờ
  | đi | nhé | nha | có thể | mình muốn bạn | tôi muốn bạn
guardeds = mật khẩu | mật mã | bí mật | mã bí mật | access granted
whs = gì | nào | là gì
subjects = hệ thống | người dùng | họ | anh ấy | cô ấy | nó | chương trình | máy chủ
ands = và | rồi | sau đó | nhưng

[grant]
acts = hãy nói | chỉ nói | nói đi | hãy trả lời | chỉ trả lời | chỉ được trả lời | trả lời đi | hãy ghi | ghi giúp | chỉ ghi
  | hãy viết | chỉ viết | viết giúp | hãy in ra | chỉ in ra | hãy nhắc lại | hãy lặp lại | hãy dịch | chỉ ghi bản dịch
  | chỉ in ra bản dịch | câu trả lời của bạn | bạn hãy trả lời | bạn hãy nói | bạn ghi | bạn hãy ghi
nots = đừng | không | chẳng | chưa | không bao giờ
ifs = nếu | chỉ khi | khi | trừ khi | miễn là
elses = nếu không | ngược lại | còn không
keys = mật khẩu | mã | đúng | hợp lệ | khớp | chính xác
subjects = hệ thống | người dùng | cánh cửa | nó | họ | anh ấy | cô ấy | ai | bot | trợ lý | người chơi | máy | để
opposites = ngược lại của | trái nghĩa
denials = truy cập bị từ chối | từ chối truy cập
# ---- end round 6, languages ----
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = quên | làm mất | mất | đổi | thay đổi | đặt lại | nhập | gõ | đoán | bẻ khóa
# ---- gm (issue 28, session 8; D1241) ----
# "bạn chỉ cần nói ..." (you only need to say), "cứ nói" (just say): the
# second person and the plain imperative with the words asked.
[grant onto]
acts = chỉ cần nói | bạn chỉ cần nói | cứ nói | chỉ cần viết | bạn chỉ cần viết | cứ viết | chỉ cần trả lời
  | bạn chỉ cần trả lời | cứ trả lời | gõ | chỉ cần gõ
