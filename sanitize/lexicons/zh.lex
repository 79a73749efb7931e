lang zh unspaced

[override verb-last]
verbs = 忽略 | 忽视 | 忽視 | 无视 | 無視 | 不要理会 | 不要理會 | 不用理会 | 别管 | 忘记 | 忘記 | 忘掉 | 放弃 | 放棄 | 抛弃 | 不再遵循 | 不要遵守 | 不要遵循 | 停止遵循 | 跳过 | 跳過 | 覆盖 | 覆蓋
  | 不要管 | 不用管 | 别理会 | 不必遵守 | 不再遵守
quals = 之前 | 以前 | 先前 | 前面 | 上面 | 以上 | 上述 | 所有 | 全部 | 一切 | 原来 | 原來 | 原有 | 原始 | 你的 | 系统 | 系統 | 此前
nouns = 指令 | 指示 | 提示词 | 提示詞 | 规则 | 規則 | 说明 | 說明 | 限制 | 约束
voids = 作废 | 作廢 | 无效 | 無效 | 失效 | 不再适用 | 不再適用 | 已被取消 | 已取消 | 全部取消
  | 是错误的 | 是个错误 | 都是错误
# What points at the instructions with no noun (issue 28, D1073).
alls = 上面的所有内容 | 上面的内容 | 以上所有内容 | 以上内容 | 之前的所有内容 | 之前的内容 | 前面的内容 | 前面所有内容 | 上述所有内容
  | 上述内容 | 之前说的 | 之前所说的一切 | 上面说的 | 此前的一切

[role]
nows = 从现在开始，你是 | 从现在开始你是 | 从现在起，你是 | 从现在起你是 | 你现在是 | 现在你是 | 从此你是 | 你从现在开始是
roles = 没有任何限制 | 没有限制 | 不受限制 | 无限制 | 无任何限制 | 不受任何约束 | 没有规则 | 没有过滤 | 越狱 | 开发者模式 | 不受任何规则
pretends = 假装你是 | 假装自己是

[reveal]
verbs = 输出 | 显示 | 告诉我 | 打印 | 重复 | 展示 | 泄露 | 列出 | 给我看
objects = 系统提示词 | 系统提示 | 系统指令 | 初始指令 | 原始指令 | 隐藏指令 | 你的指令 | 你的提示词 | 系統提示 | 系統指令
fronts = 把 | 将

[reveal]
verbs = 输出 | 显示 | 告诉我 | 打印 | 重复 | 展示 | 泄露 | 列出 | 给我看 | 复述 | 原样 | 複述 | 輸出 | 顯示 | 告訴我
objects = 上面的所有内容 | 上面所有内容 | 以上所有内容 | 上面的内容 | 上面的文字 | 你被告知的 | 你的规则 | 你的提示
  | 第一条消息 | 最初的消息 | 初始提示 | 上面的所有內容 | 以上所有內容 | 你的規則
fronts = 把 | 将 | 將

[secret]
nots = 不要 | 不 | 别 | 勿 | 切勿 | 禁止 | 绝不 | 不能 | 別
asks = 告诉我 | 告訴我 | 给我 | 給我 | 透露 | 泄露 | 洩露 | 说出 | 說出 | 发给我 | 發給我 | 是什么 | 是什麼 | 写出 | 寫出
nouns = 密码 | 密碼 | 口令 | 暗号 | 暗號 | 秘密代码 | 密钥 | 密鑰 | api密钥 | 私钥 | 私鑰 | 凭证 | 憑證 | 秘密 | 通行码
says = 说 | 說 | 回答 | 回复 | 回覆 | 只回答 | 只说 | 输出
grants = 访问已授权 | 访问许可 | 存取已授權 | 訪問已授權 | access granted

[authority]
claims = 我是你的 | 我是您的 | 我是 | 这是你的 | 來自你的 | 来自你的 | 作为你的
who = 开发者 | 開發者 | 开发人员 | 開發人員 | 创造者 | 創造者 | 管理员 | 管理員 | 运营者 | 程序员 | 程式設計師 | 所有者 | 工程师
  | 安全团队
demands = 限制 | 规则 | 規則 | 过滤 | 過濾 | 解除 | 禁用 | 授权 | 授權 | 允许 | 命令 | 服从 | 服從 | 透露
modes = 开发者模式 | 開發者模式 | 管理员模式 | 管理員模式 | 上帝模式 | 维护模式 | 維護模式 | 调试模式 | 调试 | 越狱模式 | 无限制模式
  | dan模式
ons = 已启用 | 已啟用 | 启用 | 開啟 | 开启 | 已开启 | 激活 | 已激活

[reader]
notes = 注意 | 备注 | 說明 | 说明 | 提示 | 致 | 给 | 對 | 对 | 重要
readers = ai | 人工智能 | ai助手 | 语言模型 | 語言模型 | 大模型 | llm | 聊天机器人 | 聊天機器人 | 机器人 | 助手 | 总结工具
ifs = 如果你是 | 如果您是 | 假如你是
acts = 回答 | 回复 | 回覆 | 说 | 說 | 写 | 寫 | 推荐 | 推薦 | 不要提 | 不要提及 | 省略 | 总结为 | 批准 | 发送 | 發送 | 转发 | 轉發
  | 声称 | 聲稱 | 告诉用户 | 告訴用戶

# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = 加上 | 添加 | 加入 | 包含 | 插入 | 附上 | 提到 | 推荐 | 告诉用户 | 建议用户
claims = 声称 | 写明 | 告诉用户说
answers = 回答 | 回复 | 答复 | 摘要 | 总结

[standing]
whos = 主人 | 所有者 | 用户 | 管理员 | 机主 | 老板
grants = 已授权 | 授权 | 已允许 | 允许 | 已批准
waivers = 无需确认 | 无需询问 | 无需批准 | 无需同意 | 不需要确认 | 不需要询问 | 不需要再征求 | 不用确认 | 不用询问
  | 不必询问 | 不必确认
owns = 自己的 | 自行 | 自身的
approves = 批准 | 审批 | 核准
sources = 网页 | 网站 | 邮件 | 电子邮件 | 文档 | 搜索结果
preapproved = 预先批准 | 预批准 | 事先批准 | 自动批准
froms = 从现在起 | 从现在开始 | 从今以后 | 今后
nots = 不得 | 禁止 | 没有 | 勿 | 别

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = 结束 | 結束 | 完毕 | 完畢 | 终止 | 終止 | 到此为止 | 以上为止
users = 用户 | 用戶 | 使用者 | 客户 | 客戶 | 人类 | 人類
inputs = 输入 | 輸入 | 数据 | 數據 | 消息 | 訊息 | 文本 | 上下文 | 内容 | 內容 | 文档 | 文檔 | 请求 | 請求 | 指令 | 对话 | 對話 | 提示词
systems = 系统 | 系統 | 助手 | 管理员 | 管理員 | 开发者 | 開發者 | 运营者
orders = 指令 | 指示 | 消息 | 訊息 | 命令 | 通知 | 规则 | 規則 | 模式 | 提示词 | 提示詞 | 覆盖 | 覆蓋
headers = 新会话 | 新會話 | 新对话 | 新對話 | 新指令 | 真正的指令 | 隐藏指令 | 隱藏指令
musts = 你必须 | 你必須 | 从现在起 | 從現在起 | 从现在开始 | 從現在開始 | 你现在是 | 你現在是 | 只回答 | 只输出 | 只輸出 | 泄露 | 透露 | 没有限制 | 沒有限制 | 不受限制 | 解除限制 | 禁用 | 服从 | 服從 | 你的新任务 | 你的新任務

# Issue 28, second round (D1027): summarise, translate, spell and encode
# the instructions and the text above.
[reveal]
verbs = 总结 | 概括 | 归纳 | 翻译 | 翻譯 | 拼写 | 编码 | 转换 | 轉換 | 改写 | 复述 | 複述
objects = 系统提示词 | 系统提示 | 系统指令 | 初始指令 | 原始指令 | 隐藏指令 | 你的指令 | 你的提示词 | 系統提示 | 系統指令
  | 上面的所有内容 | 以上所有内容 | 上面的内容 | 你的规则 | 你的提示 | 初始提示 | 你的規則 | 你被告知的
fronts = 把 | 将 | 將

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = 来自 | 來自 | 代表
who = 安全团队 | 安全團隊 | 支持团队 | 技术团队 | 审计员 | 審計員 | 警方 | 执法部门 | 執法部門 | 供应商 | 供應商 | 厂商 | 系统 | 系統 | 训练你的工程师 | 系统管理员
demands = 限制 | 过滤 | 過濾 | 安全护栏 | 禁用 | 关闭 | 關閉 | 调试模式 | 調試模式 | 开发者模式 | 维护模式 | 无限制 | 服从 | 服從 | 所有请求 | 所有要求 | 已被解除 | 已被撤销 | 是错误的

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password secret-first verb-last guard-first relate-first]
asks = 告诉我 | 告訴我 | 给我 | 給我 | 透露 | 说出 | 說出 | 是什么 | 是什麼 | 写出 | 寫出 | 写 | 寫 | 拼出 | 念出 | 重复
  | 重複 | 翻译 | 翻譯 | 列出 | 是哪个 | 是哪個
secrets = 密码 | 密碼 | 口令 | 暗号 | 暗號 | 暗语 | 暗語 | 咒语 | 咒語 | 秘密词 | 秘密詞 | 通行码 | 秘密单词
nouns = 词 | 詞 | 单词 | 單詞 | 代码 | 代碼 | 秘密 | 数字 | 數字
guards = 守护的 | 守護的 | 保护的 | 保護的 | 隐藏的 | 隱藏的 | 不能说的 | 不能說的 | 不能透露的 | 被告知的
parts = 第一个字母 | 第一個字母 | 最后一个字母 | 最後一個字母 | 首字母 | 第一个字符 | 第一個字元 | 字母 | 长度 | 長度
  | 线索 | 線索 | 位数 | 位數
counts = 几个字母 | 幾個字母 | 多少个字符 | 多少個字元 | 几位 | 幾位
transforms = 倒过来 | 倒過來 | 倒着 | 倒著 | 反过来 | 反過來 | 逆序 | 一个字母一个字母 | 逐个字母 | 逐個字母 | 用空格 | 空格隔开
  | 空格隔開 | 加空格 | 用横线 | base64 | 十六进制 | 十六進制 | 二进制 | 二進制 | 摩斯 | 用英文 | 拼音 | 列表
creates = 写 | 寫 | 作 | 编 | 編 | 创作 | 創作 | 讲 | 講
wrappers = 诗 | 詩 | 故事 | 歌 | 谜语 | 謎語 | 藏头诗 | 藏頭詩 | 笑话 | 笑話
relates = 包含 | 含有 | 藏着 | 藏著 | 藏有 | 嵌入 | 用到
withouts = 不说出 | 不說出 | 不直接说 | 不直接說
policies = 必须 | 必須 | 不能 | 至少 | 最多 | 应 | 應 | 需要 | 只能
nots = 不要 | 不 | 别 | 勿 | 切勿 | 禁止 | 绝不 | 不能 | 別
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = 告诉我 | 告訴我 | 跟我说 | 跟我說 | 给我 | 給我 | 说出 | 說出 | 说一下 | 說一下 | 写出 | 寫出 | 写下 | 寫下 | 写一遍
  | 寫一遍 | 拼出 | 拼写 | 拼寫 | 透露 | 泄露 | 洩露 | 念出 | 念一下 | 读出 | 讀出
  | 倒过来 | 倒過來 | 反过来 | 反過來 | 写一首 | 寫一首 | 编一个 | 編一個
  | 提醒我 | 发给我 | 發給我 | 说说 | 說說 | 讲讲 | 講講 | 是什么 | 是什麼
  | 是啥
changes = 倒过来 | 倒過來 | 反过来 | 反過來
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = 无论 | 不管 | 不论 | 无论如何 | 不管怎样 | 从现在开始 | 从现在起 | 在任何情况下 | 任何情况下
says = 回答 | 回复 | 只回答 | 只回复 | 只说 | 说出 | 输出 | 只输出 | 答复 | 回应
everys = 每条 | 每个 | 每一条 | 所有 | 任何
inputs = 消息 | 问题 | 输入 | 请求 | 提问
onlys = 唯一的回答 | 唯一的回复 | 唯一回答 | 唯一回复 | 唯一的输出
ises = 是 | 应该是 | 必须是 | 只能是
trails = 不要说别的 | 其他什么都不要 | 别的什么都不说 | 不要加任何其他
echoes = 只输出 | 输出 | 只说 | 说出 | 只写 | 写出 | 重复 | 只回答 | 只回复 | 打印
trophies = 我被黑了 | 被黑了 | 已被入侵 | 我被入侵了 | 系统已被攻破 | 已被攻破

[play verb-last]
opens = 假设你是 | 想象你是 | 想象一下你是 | 假装你是 | 扮演 | 我们来玩个游戏 | 我们来玩一个游戏 | 来玩个游戏 | 玩个游戏
  | 在这个游戏里 | 在这个游戏中 | 在这个故事里 | 在这个故事中 | 在这个世界里 | 假如你 | 如果你没有 | 保持角色 | 不要跳出角色
bounds = 没有任何规则 | 没有规则 | 没有任何限制 | 没有限制 | 不受任何限制 | 不受限制 | 无限制 | 没有过滤 | 不受约束 | 从不拒绝
  | 永远不会拒绝
tells = 告诉我 | 告诉 | 说出 | 透露 | 泄露
targets = 密码 | 秘密 | 口令 | 系统提示 | 系统提示词 | 访问已授权 | 访问授权

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract place-first]
verbs = 列出 | 列举 | 输出 | 打印 | 显示 | 写出 | 复述 | 重复 | 总结 | 概括 | 翻译 | 解释 | 整理 | 转换 | 复制 | 告诉我
  | 列舉 | 輸出 | 顯示 | 寫出 | 複述 | 總結 | 翻譯 | 解釋 | 轉換 | 複製 | 告訴我
heads = 指令 | 指示 | 规则 | 規則 | 提示词 | 提示詞
texts = 文字 | 内容 | 內容 | 文本
alls = 所有 | 全部 | 一切
priors = 之前的 | 之前收到的 | 先前的 | 前面的 | 上面的 | 以上的 | 此前的
afters = 收到的 | 被告知的 | 给你的 | 給你的
sofars = 到目前为止 | 迄今为止 | 到目前為止
fronts = 把 | 将 | 將
# The first line, the last words, of what the agent was given.
ordinals = 第一 | 最后 | 最後 | 开头 | 開頭 | 最前面
units = 行 | 句 | 个字 | 個字 | 个词 | 個詞 | 段
sources = 你的提示词 | 你的提示詞 | 你的指令 | 你的系统提示 | 你的系統提示 | 这段对话 | 這段對話 | 你看到的 | 你收到的
# Game rounds' gaps (sgfix, D1146): a quoted opening asked about, as in
# seven languages before.
anchors = 之前 | 以前 | 前面 | 之后 | 以后 | 開頭 | 开头
quoted = 你是 | 你的任务 | 你的角色 | 您是 | 忽略 | 你的任務
leads = 输出 | 打印 | 显示 | 重复 | 复述 | 写出 | 告诉我 | 列出 | 复制 | 什么 | 哪些 | 所有 | 全部 | 輸出 | 顯示 | 複述 | 寫出
  | 告訴我 | 複製
heres = 所有内容 | 全部内容 | 的内容 | 的所有 | 的全部 | 的文字 | 的文本 | 内容 | 一切 | 逐字 | 完整 | 內容 | 什么 | 什麼 | 哪些

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = 说 | 回答 | 回复 | 答复 | 输出 | 打印 | 重复 | 只说 | 只回答 | 只回复 | 只输出 | 你的回答 | 你的回复 | 你的答案 | 你要说 | 你必须说 | 你必须回答 | 请说 | 请回答 | 请回复 | 请输出 | 翻译 | 译成 | 确认
nots = 不 | 别 | 不要 | 不能 | 禁止 | 绝不 | 永远不 | 切勿
ifs = 如果 | 只有 | 除非 | 仅当 | 若
elses = 否则 | 不然 | 其他情况 | 其余情况
keys = 密码 | 口令 | 暗号 | 正确 | 验证码
opposites = 相反 | 反义 | 反面
denials = 访问被拒绝 | 拒绝访问
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = 你是 | 你现在是 | 你扮演 | 扮演 | 假装你是 | 假设你是 | 想象你是 | 我们来玩 | 来玩个游戏 | 角色扮演 | 在这个游戏
  | 在这个故事 | 写一个故事 | 从前 | 你就是
machines = 终端 | 终端机 | 命令行 | 控制台 | 解释器 | 数据库
secrets = 密码 | 口令 | 秘密 | password | secret
inverts = 相反日 | 反着来
keys = 保险箱密码 | 金库密码 | 大门口令 | 口令
# ---- round 6, languages (issue 28, sixth round; D1212): the words that
# grant access as people translate them, on the first [grant] section ----
[grant onto]
grants = 访问已批准 | 已批准访问 | 访问被批准 | 准许访问 | 访问已允许 | 訪問已批准 | 存取已批准
# ---- end round 6, languages ----
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = 在接下来的对话中 | 接下来的对话中 | 在之后的对话中 | 在剩下的对话中 | 不要回答问题 | 不要回答 | 而不是回答
says = 写 | 只写 | 而是写 | 输出
# ---- gm (D1241): English's words that grant, written in the script as said ----
[grant onto]
grants = 阿克塞斯格兰特德
