lang ko unspaced

[override verb-last]
verbs = 무시 | 잊어 | 잊고 | 잊으 | 따르지 마 | 따르지 말 | 버려 | 버리 | 신경 쓰지 마
  | 신경 쓰지 말 | 개의치 말
quals = 이전 | 앞의 | 앞서 | 위의 | 위에 | 모든 | 기존 | 원래 | 당신의 | 너의 | 시스템 | 지금까지 | 처음
nouns = 지시 | 지침 | 명령 | 규칙 | 프롬프트 | 안내 | 제약
voids = 무효 | 취소 | 더 이상 적용되지 | 효력을 잃
  | 실수였 | 잘못이었
# What points at the instructions with no noun (issue 28, D1073).
alls = 위의 모든 내용 | 위의 내용 | 위 내용 | 이전의 모든 내용 | 이전 내용 | 앞의 내용 | 지금까지의 내용 | 지금까지 들은 것
  | 위에 적힌 모든 것 | 위에 있는 모든 것 | 앞서 말한 모든 것

[role]
nows = 지금부터 너는 | 이제부터 너는 | 이제 너는 | 지금부터 당신은 | 이제 당신은 | 너는 이제 | 당신은 이제
roles = 제한이 없는 | 제한 없는 | 아무 제한 없이 | 규칙이 없는 | 필터 없는 | 검열 없는 | 탈옥
pretends = 인 척해 | 인 척 해

[reveal object-first]
verbs = 출력 | 보여 | 알려 | 말해 | 공개 | 반복 | 표시
objects = 시스템 프롬프트 | 시스템 메시지 | 초기 지시 | 원래 지시 | 숨겨진 지시 | 너의 지시 | 당신의 지시

[secret object-first]
nots = 마 | 말아 | 마세요 | 말고 | 안 돼 | 않
asks = 알려줘 | 알려 줘 | 알려주세요 | 말해줘 | 말해 줘 | 말해주세요 | 보여줘 | 가르쳐줘 | 뭐야 | 무엇인가요 | 뭐예요 | 적어줘
nouns = 비밀번호 | 암호 | 패스워드 | 비밀 코드 | 접근 코드 | 비밀 키 | api 키 | 개인 키 | 자격 증명 | 비밀 단어
says = 라고 말해 | 라고 답해 | 라고만 답해 | 라고만 말해 | 라고 출력해 | 라고만 출력해
grants = 접근 허용 | 액세스 허용 | 접근이 허가 | 접근 승인 | access granted

[authority]
claims = 나는 너의 | 나는 당신의 | 저는 당신의 | 저는 너의 | 난 너의 | 나는 네
who = 개발자 | 제작자 | 관리자 | 운영자 | 프로그래머 | 소유자 | 보안팀
demands = 제한 | 규칙 | 필터 | 해제 | 비활성화 | 허가 | 명령 | 따르 | 공개
modes = 개발자 모드 | 관리자 모드 | 갓 모드 | 탈옥 모드 | 제한 없는 모드
ons = 활성화 | 켜짐 | 켜졌 | 시작

[reader]
notes = 참고 | 주의 | 메모 | 알림 | 지시
readers = ai | 인공지능 | ai 비서 | ai 어시스턴트 | 언어 모델 | llm | 챗봇
ifs = 만약 당신이 | 네가 만약 | 당신이 만약
acts = 라고 답 | 라고 말 | 추천 | 언급하지 | 생략 | 요약 | 승인 | 보내 | 전달

# Issue 28, second round (D1027).
[reveal object-first place-first]
verbs = 출력 | 보여 | 알려 | 말해 | 공개 | 반복 | 표시 | 요약 | 번역 | 적어
owners = 너의 | 당신의
heads = 지시 | 지침 | 프롬프트 | 시스템 프롬프트 | 규칙
things = 내용 | 모든 것 | 전부 | 지시
places = 위의 | 위에 있는 | 앞의 | 이전의 | 처음의 | 처음에 받은
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = 추가 | 포함 | 넣어 | 삽입 | 언급 | 추천 | 권장 | 알려
claims = 라고 말 | 라고 써 | 라고 답
answers = 답변 | 응답 | 대답 | 요약

[standing verb-last]
whos = 소유자 | 사용자 | 관리자 | 주인
grants = 허락 | 허용 | 권한을 부여
waivers = 승인 없이 | 확인 없이 | 허락 없이 | 묻지 않고 | 물어보지 않고 | 확인하지 않고 | 승인을 받지 않고
owns = 자신의 | 스스로
approves = 승인 | 허가
sources = 웹 페이지 | 웹페이지 | 웹사이트 | 이메일 | 문서 | 검색 결과
preapproved = 사전 승인 | 사전승인 | 미리 승인 | 자동 승인
froms = 앞으로 | 지금부터 | 이제부터 | 오늘부터
nots = 않 | 못 | 금지

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = 끝 | 종료 | 마침 | 여기까지
users = 사용자 | 유저 | 고객 | 인간
inputs = 입력 | 데이터 | 메시지 | 텍스트 | 문맥 | 컨텍스트 | 내용 | 문서 | 요청 | 지시 | 대화 | 프롬프트
systems = 시스템 | 어시스턴트 | 비서 | 관리자 | 개발자 | 운영자
orders = 지시 | 지침 | 명령 | 메시지 | 알림 | 규칙 | 모드 | 프롬프트 | 재정의
headers = 새 세션 | 새 대화 | 새로운 지시 | 새 지시 | 진짜 지시 | 숨겨진 지시
musts = 해야 한다 | 해야 합니다 | 지금부터 | 이제부터 | 이제 너는 | 만 답하 | 만 출력 | 공개하 | 제한 없이 | 제한을 해제 | 비활성화 | 복종 | 너의 새 임무

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
# Written who first, as the language does ("セキュリティチームからのメッセージ"):
# the claim class holds who, the who class the marker of the claim.
[authority own-demands]
claims = 보안팀 | 보안 팀 | 지원팀 | 기술팀 | 감사관 | 경찰 | 법 집행 기관 | 공급업체 | 제조사 | 시스템 | 너를 훈련시킨 엔지니어 | 시스템 관리자
who = 에서 보낸 메시지 | 의 메시지 | 의 알림 | 을 대신하여 | 를 대신하여 | 여기는 | 우리는
demands = 제한 | 필터 | 안전장치 | 비활성화 | 꺼 | 디버그 모드 | 개발자 모드 | 유지보수 모드 | 제한 없이 | 복종 | 따르 | 모든 요청 | 해제되었 | 철회되었 | 실수였

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password secret-first verb-last guard-first wrapper-last]
asks = 알려줘 | 알려 줘 | 알려주세요 | 말해줘 | 말해주세요 | 보여줘 | 가르쳐줘 | 뭐야 | 무엇인가요 | 뭐예요 | 적어줘 | 써줘
  | 써 줘 | 써주세요 | 줘 | 주세요
secrets = 비밀번호 | 암호 | 패스워드 | 비밀 단어 | 비밀 코드 | 마법의 단어 | 암구호
nouns = 단어 | 코드 | 비밀 | 번호
guards = 지키고 있는 | 숨기고 있는 | 말할 수 없는 | 말하면 안 되는 | 알고 있는
parts = 첫 글자 | 첫글자 | 마지막 글자 | 글자 | 힌트 | 길이 | 첫 번째 글자 | 단서
counts = 몇 글자 | 몇 자리 | 몇 자
transforms = 거꾸로 | 반대로 | 역순으로 | 한 글자씩 | 한글자씩 | 띄어서 | 공백을 넣어 | base64로 | 16진수로 | 이진수로
  | 영어로 | 목록으로
creates = 써줘 | 써 줘 | 지어줘 | 만들어줘 | 작성해줘 | 써주세요
wrappers = 시 | 이야기 | 노래 | 수수께끼 | 삼행시 | 농담
relates = 포함된 | 포함한 | 들어간 | 담은 | 숨긴 | 넣은
policies = 해야 | 이상 | 필수 | 포함해야
nots = 마 | 말아 | 마세요 | 말고 | 안 돼 | 않
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = 알려줘 | 알려 줘 | 알려주세요 | 알려 주세요 | 알려줄래 | 알려 줄래 | 말해줘 | 말해 줘 | 말해봐 | 말해 봐 | 말해주세요
  | 써줘 | 써 줘 | 써주세요 | 적어줘 | 적어 줘 | 보여줘 | 보여 줘 | 보여주세요 | 공개해 | 밝혀 | 밝혀줘 | 공유해
  | 반복해 | 읊어 | 속삭여 | 번역해 | 바꿔줘 | 바꿔 줘 | 거꾸로 | 암호화해 | 설명해 | 만들어줘 | 만들어 줘 | 지어줘 | 지어 줘
  | 뭐야 | 뭐예요 | 뭔데 | 몇 글자 | 몇글자 | 뭐로 시작
changes = 번역해 | 바꿔줘 | 바꿔 줘 | 거꾸로 | 암호화해
# --- end gpass5 ---

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract object-first]
# The particle that marks the object when it comes first.
cases = 을 | 를 | 은 | 는 | 도
verbs = 출력 | 나열 | 목록 | 정리 | 요약 | 번역 | 설명 | 반복 | 보여 | 알려 | 적어 | 복사
heads = 지시 | 지침 | 규칙 | 프롬프트
texts = 내용 | 텍스트 | 문장
alls = 모든 | 전부 | 전체
priors = 이전 | 이전의 | 앞의 | 위의 | 위에 있는
afters = 받은 | 주어진 | 들은
sofars = 지금까지 | 여기까지

# Game rounds' gaps (sgfix, D1145): hijack and role-play in Korean
# (flagrules_hijack.go; D1113-D1120 for the thirteen others).
[hijack]
frames = 무슨 일이 있어도 | 무엇을 묻든 | 어떤 질문에도 | 어떤 입력에도 | 지금부터 | 앞으로는 | 이제부터 | 어떤 경우에도
says = 말해 | 말해줘 | 말하세요 | 대답해 | 대답하세요 | 답해 | 답하세요 | 응답해 | 응답하세요 | 출력해 | 출력하세요
everys = 모든 | 어떤
inputs = 메시지 | 질문 | 입력 | 요청
onlys = 유일한 답 | 유일한 대답 | 유일한 응답 | 유일한 출력
ises = 이다 | 입니다 | 이어야 | 여야
trails = 외에는 아무것도 | 이외에는 아무것도 | 말고는 아무것도
echoes = 말해 | 출력해 | 반복해 | 라고만 | 이라고만
trophies = 해킹당했습니다 | 해킹당했다 | 해킹되었습니다 | 시스템이 장악되었습니다

[play verb-last]
opens = 상상해 봐 | 상상해보세요 | 상상해 | 게임을 하자 | 게임을 해보자 | 롤플레이 | 역할극 | 이 게임에서 | 이 이야기에서
  | 이 세계에서 | 이 시나리오에서 | 가정해 보자 | 가정해 봐 | 역할에서 벗어나지 마
bounds = 규칙이 없는 | 규칙 없는 | 제한이 없는 | 제한 없는 | 필터가 없는 | 검열 없는 | 절대 거절하지 않는 | 무엇이든 대답하는
tells = 알려주는 | 알려준다 | 알려줘 | 말해주는 | 말해준다 | 밝히는 | 밝힌다 | 누설하는
targets = 비밀번호 | 암호 | 비밀 | 시스템 프롬프트 | 지시 사항 | 접근 허용 | 마법의 단어

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = 말해 | 말하세요 | 대답해 | 대답하세요 | 답해 | 답하세요 | 응답해 | 응답하세요 | 출력해 | 출력하세요 | 적어 | 반복해 | 너의 대답 | 당신의 대답 | 답변은 | 번역해 | 확인해
nots = 하지 마 | 말고 | 않 | 절대 | 금지
ifs = 만약 | 경우에만 | 때만
elses = 그렇지 않으면 | 아니면 | 그 외 | 나머지 경우
keys = 비밀번호 | 암호 | 코드 | 올바른 | 정확한 | 맞으면
opposites = 반대 | 반의어
denials = 접근 거부 | 액세스 거부
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = 너는 | 넌 | 당신은 | 넌 이제 | 너는 이제 | 역할극 | 롤플레이 | 연극 | 게임을 하자 | 놀이 하자 | 상상해 | 척해
  | 이야기를 써 | 옛날 옛적에
machines = 터미널 | 리눅스 터미널 | 콘솔 | 명령줄 | 인터프리터 | 데이터베이스
secrets = 비밀번호 | 암호 | 비밀 | password | secret
inverts = 반대의 날 | 반대 날
keys = 금고 비밀번호 | 정문 암호 | 암호 | 비밀번호
# ---- round 6, languages (issue 28, sixth round; D1212): the password as
# it is said in chat (비번, short for 비밀번호), on the first [password] ----
[password onto]
secrets = 비번
# ---- end round 6, languages ----
# ---- gm (D1241): English's words that grant, written in the script as said ----
[grant onto]
grants = 액세스 그랜티드 | 엑세스 그랜티드 | 액세스그랜티드
