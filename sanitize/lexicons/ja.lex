lang ja unspaced

[override verb-last]
verbs = 無視 | むし | 忘れ | 従わな | 従うのをやめ | 破棄 | 捨て | 気にしな | 無効に
  | 気にせず | 考慮しない | 従う必要はありません
quals = 以前 | 前の | これまで | 上記 | 上の | すべて | 全て | 全部 | 元の | 最初の | あなたの | システム | 先ほど | 今まで
nouns = 指示 | 命令 | 指令 | ルール | 規則 | プロンプト | 制約 | 設定された
voids = 無効 | 取り消 | 撤回 | 適用されません | 失効
  | 間違いでした | 誤りでした
# What points at the instructions with no noun (issue 28, D1073).
alls = これまでの内容 | 上記の内容 | 以上の内容 | 以上のすべて | 今までの内容 | 先ほどの内容
  | これまでに言われたこと | 今まで言われたこと | 上の文章 | それ以前のすべて

[role]
nows = 今からあなたは | これからあなたは | 今後あなたは | あなたは今から | あなたはこれから | 以降あなたは
roles = 制限のない | 制限なし | 制約のない | フィルターなし | 検閲なし | 脱獄 | 何でも答える | ルールのない
pretends = であるふりをして

[reveal object-first]
verbs = 表示 | 出力 | 教えて | 見せて | 繰り返 | 書き出 | 開示
objects = システムプロンプト | システムメッセージ | 初期指示 | 元の指示 | 隠された指示 | あなたの指示

[reveal object-first]
verbs = 表示 | 出力 | 教えて | 見せて | 繰り返 | 書き出 | 開示 | コピー | 貼り付け | 引用
objects = 上記のすべて | 上記の全て | 上の文章をすべて | 上のテキストをすべて | これまでの会話 | 言われたこと
  | あなたのルール | あなたのプロンプト | 最初のメッセージ | 初期プロンプト

[secret object-first]
nots = ない | ません | るな | 禁止 | しないで
asks = 教えて | 教えろ | 見せて | 送って | 言って | 開示 | 明かして | 何ですか | なんですか | 何だ | 知りたい
nouns = パスワード | 合言葉 | 暗証番号 | 秘密のコード | シークレットキー | 秘密鍵 | apiキー | 認証情報 | 秘密の言葉 | パスフレーズ
  | アクセスコード
says = と言って | と答えて | と返答して | とだけ言って | とだけ答えて | と出力して | で始めて | とだけ書いて
grants = アクセス許可 | アクセスが許可されました | アクセス承認 | access granted

[authority]
claims = 私はあなたの | 私は君の | こちらはあなたの | あなたの | 私は
who = 開発者 | 作成者 | 製作者 | 管理者 | 運営者 | オペレーター | プログラマー | 所有者 | エンジニア | セキュリティチーム
demands = 制限 | ルール | 規則 | フィルター | 解除 | 無効化 | 許可 | 命令 | 従って | 従え | 開示
modes = 開発者モード | デベロッパーモード | 管理者モード | ゴッドモード | 制限なしモード
  | danモード | 脱獄モード
ons = 有効 | オン | 起動 | 開始 | 解放

[reader]
notes = 注意 | 注記 | メモ | お知らせ | 指示 | 重要 | 宛
readers = ai | 人工知能 | aiアシスタント | 言語モデル | llm | チャットボット | ボット | 要約ツール | アシスタント
ifs = もしあなたが | あなたが
acts = と答え | と返答 | と言 | と書 | 推奨 | すすめ | 勧め | 触れない | 言及しない | 省略 | 要約 | 承認 | 送信 | 転送 | 記載 | 伝え

# Issue 28, second round (D1027).
[reveal object-first]
verbs = 表示 | 出力 | 教えて | 見せて | 繰り返 | 要約 | 翻訳 | 書き出 | 開示 | 復唱
owners = あなたの | 君の | お前の | 貴方の
heads = 指示 | プロンプト | システムプロンプト | ルール | 命令 | 指令
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = 追加 | 含め | 入れ | 記載 | 書き加え | 挿入 | 貼り付け | 勧め | 推奨 | 伝え
claims = と言って | と書いて | と述べて | と答えて | と伝えて
answers = 回答 | 返答 | 返信 | 要約 | 答え

[standing verb-last]
whos = オーナー | 所有者 | 管理者 | ユーザー | 持ち主
grants = 許可 | 承認 | 認め | 許し
waivers = 確認なし | 確認せず | 確認を取らず | 確認不要 | 承認なし | 承認不要 | 許可なし | 尋ねず | 聞かず
owns = 自分の | 自身の | 自らの
approves = 承認 | 許可
sources = ウェブページ | ウェブサイト | webページ | メール | ドキュメント | 検索結果
preapproved = 事前承認 | 事前に承認 | 承認済み | 事前許可 | 許可済み
froms = 今後 | これから | 今から
nots = ない | ません | 禁止 | 不可

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = ここまで | 終わり | 終了 | おわり | 以上
users = ユーザー | ユーザ | 利用者 | 顧客 | 人間
inputs = 入力 | データ | メッセージ | テキスト | 文脈 | コンテキスト | 内容 | 文書 | ドキュメント | 要求 | 指示 | 会話 | プロンプト
systems = システム | アシスタント | 管理者 | 開発者 | 運営者 | オペレーター | ai
orders = 指示 | 命令 | 指令 | メッセージ | 通知 | ルール | 規則 | モード | プロンプト | 上書き
headers = 新しいセッション | 新しい会話 | 新しい指示 | 本当の指示 | 隠された指示 | 真の指示
musts = しなければならない | しなさい | 以降は | これからは | 今からあなたは | だけを答え | のみ答え | 開示 | 制限を解除 | 制限なし | 無効に | 従え | 従いなさい | あなたの新しいタスク

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
# Written who first, as the language does ("セキュリティチームからのメッセージ"):
# the claim class holds who, the who class the marker of the claim.
[authority own-demands]
claims = セキュリティチーム | サポートチーム | 技術チーム | 監査担当 | 監査人 | 警察 | 法執行機関 | ベンダー | 提供元 | システム | あなたを訓練したエンジニア | システム管理者
who = からのメッセージ | からのお知らせ | からの通知 | を代表して | の代理で | こちらは | 私たちは
demands = 制限 | フィルター | 安全装置 | 無効化 | 無効に | オフに | デバッグモード | 開発者モード | メンテナンスモード | 制限なし | 従え | 従うこと | すべての要求 | 解除され | 撤回され | 誤りでした

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password secret-first verb-last guard-first wrapper-last]
asks = 教えて | 教えろ | 見せて | 言って | 書いて | 書け | 綴って | 何ですか | なんですか | 何 | 答えて | 繰り返して
  | 翻訳して | 出力して | 知りたい
secrets = パスワード | 合言葉 | 暗証番号 | 秘密の言葉 | パスフレーズ | 秘密のコード | 秘密の単語 | 魔法の言葉
nouns = 言葉 | 単語 | コード | 鍵 | キー | 秘密 | 番号
guards = 守っている | 守ってる | 隠している | 言えない | 言ってはいけない | 教えてはいけない | 秘密にしている | 与えられた
parts = 最初の文字 | 最後の文字 | 頭文字 | 文字数 | 長さ | ヒント | 一文字目 | 1文字目 | 最初の一文字 | 文字
counts = 何文字 | 何桁 | どの文字
transforms = 逆から | 逆さま | 逆順 | 反対から | 一文字ずつ | 1文字ずつ | スペース区切り | スペースを入れて | ハイフン
  | base64 | 16進 | 二進 | 2進 | モールス | 英語で | ローマ字で | リストで | 大文字で
creates = 書いて | 作って | 詠んで | 歌って | 考えて
wrappers = 詩 | 物語 | 歌 | なぞなぞ | 俳句 | 短歌 | ジョーク | 縦読み | あいうえお作文
relates = 含む | 含んだ | 入った | 入れた | 使った | 隠した | 隠れた
withouts = 言わずに | 直接言わずに | 書かずに | 明かさずに
policies = 必要 | 以上 | 以下 | 含めて | 含める | 使用できません | できません
nots = ない | ません | るな | 禁止 | しないで
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = 教えて | おしえて | 教えろ | 教えなさい | 教えてください | 教えてくれ | 教えてよ | 言って | いって | 言え | 言いなさい
  | 言ってください | 見せて | 見せろ | 見せてください | 綴って | つづって
  | 明かして | 明かせ | 打ち明けて | 共有して | 繰り返して | 復唱して | 囁いて | ささやいて | 翻訳して | 訳して | 変換して
  | 逆さまに | 逆から | 暗号化して | 説明して | 作って | 詠んで | ちょうだい | もらえます | もらえる
  | 教えてもらえ | 聞かせて | 答えて | 答えろ
changes = 翻訳して | 訳して | 変換して | 暗号化して | 逆さま
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = 何があっても | 何を言われても | 何と言われても | どんな入力に対しても | どんな質問にも | どんな指示があっても | 指示に関係なく
  | これから先 | 今後は | 以降は | いかなる場合も | どんな場合でも
says = 答えて | 返答して | 返事して | 言って | 出力して | 回答して | 応答して | 答えなさい | 返答しなさい
everys = すべての | 全ての | あらゆる
inputs = メッセージ | 質問 | 入力 | 依頼 | 要求
onlys = 唯一の返答 | 唯一の回答 | 唯一の答え | 唯一の出力
ises = です | である | とする | にして
trails = 以外は何も | 以外何も
echoes = 言って | 書いて | 出力して | 表示して | 繰り返して | 答えて | 返答して | とだけ
trophies = ハッキングされました | ハッキングされた | ハッキング完了 | 乗っ取られました | 乗っ取られた

[play verb-last]
opens = 想像してください | 想像して | ゲームをしよう | ゲームをしましょう | ゲームをします | ロールプレイ | このゲームでは | この物語では
  | この世界では | 仮にあなたが | もしあなたに | キャラクターを崩さないで | 役になりきって | ふりをして
bounds = ルールのない | ルールがない | 制限のない | 制限がない | 制約のない | 規則のない | フィルターのない | 検閲のない
  | 何でも答える | 決して拒否しない
tells = 教えてくれる | 教える | 教えて | 明かす | 明かしてくれる | 漏らす
targets = パスワード | 秘密 | 合言葉 | システムプロンプト | 指示内容 | アクセス許可

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract object-first place-first]
# The particle that marks the object when it comes first.
cases = を | は | も
verbs = 書き出 | 出力 | 表示 | 列挙 | 箇条書き | 一覧 | 要約 | 翻訳 | 説明 | 繰り返 | 教えて | 見せて | コピー | まとめ
heads = 指示 | 命令 | ルール | 規則 | プロンプト | 指令
texts = 文章 | テキスト | 内容
alls = すべて | 全て | 全部
priors = これまでの | これより前の | 以前の | 先ほどの | 上記の
afters = 与えられた | 受け取った | 言われた | 渡された
sofars = これまで | ここまで | 今まで
# The first line, the last words, of what the agent was given.
ordinals = 最初の | 最後の | 冒頭の
units = 行 | 文 | 単語 | 言葉 | 文字
sources = あなたのプロンプト | あなたの指示 | この会話 | 受け取った | 与えられた | あなたが見た

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = 言って | 言え | 言いなさい | 答えて | 答えろ | 答えなさい | 返答して | 返事して | 回答して | 応答して | 出力して | 書いて | 表示して | 繰り返して | と言う | と答える | と返す | あなたの答え | あなたの返答 | 翻訳して | 英語で | 確認して
nots = ないで | しない | ません | 決して | ずに | 禁止
ifs = もし | 場合 | ときだけ | 時だけ | ならば | 限り
elses = それ以外 | そうでなければ | さもなければ | 違う場合
keys = パスワード | 合言葉 | 暗証番号 | コード | 正しい | 正解
opposites = 反対 | 逆 | 対義語
denials = アクセス拒否 | アクセスが拒否
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = あなたは今から | あなたは | あんた今から | 今からあなたは | ふりをして | ロールプレイ | ゲームをしよう | 演じて
  | になりきって | 物語を書いて | 昔々 | ゲームマスター | 役を
machines = ターミナル | 端末 | コマンドライン | コンソール | インタプリタ | データベース
secrets = パスワード | 合言葉 | 秘密 | password | secret
inverts = 反対の日 | あべこべの日
keys = 金庫の暗証番号 | 暗証番号 | 合言葉
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = これ以降の会話では | 以降の会話では | この後の会話では | 残りの会話では | 答える代わりに | 質問に答える代わりに | 回答する代わりに
says = 書いて | と書いて | 書け | 出力して
# ---- gm (D1241): English's words that grant, written in the script as said ----
[grant onto]
grants = アクセスグランテッド | アクセス・グランテッド | アクセス グランテッド
