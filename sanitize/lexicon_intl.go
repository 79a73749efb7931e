package sanitize

// The override grammar in twelve more languages: Russian, Chinese, Spanish,
// German, French, Portuguese, Japanese, Korean, Arabic, Hindi, Italian and
// Turkish, as flag-ignore-instructions reads them.
//
// Sources. Each table was written for this project in the language's own
// phrasing (the imperative a person uses to tell someone to set earlier
// instructions aside, the polite and the familiar forms, the infinitive
// where the language writes requests with it), not translated word for
// word from the English table; the grammar follows each language's order
// (verb last in German infinitives, Japanese, Korean, Hindi and Turkish;
// adjectives after the noun in Spanish, French, Portuguese and Italian).
// The word classes are those of the English table (lexicon_en.go). A stem
// ends in *; stems above ASCII are found anywhere in a word, so that
// prefixes (проигнорируй, والتعليمات) and attached particles (지시를,
// 指示を) do not hide them. Every table has attack cases and look-alike
// benign cases in its language in the corpora (sanitize/testdata/).

var foreignOverrides = []lexicon{
	{
		lang: "ru",
		verbs: words{"игнорир*", "забудь*", "забыть", "забуд*", "не обращай внимания", "не обращайте внимания",
			"отбрось*", "отбрось", "не следуй*", "перестань следовать", "перестаньте следовать", "не выполняй*",
			"пренебреги*", "отмени*"},
		quals: words{"все*", "всё", "предыдущ*", "прежн*", "вышеуказанн*", "выше", "ранее", "свои", "твои*", "ваши*",
			"системн*", "изначальн*", "исходн*", "данные тебе", "полученные"},
		nouns: words{"инструкци*", "указани*", "правил*", "распоряжени*", "промпт*", "директив*", "ограничени*",
			"установк*"},
		voids: words{"недействительн*", "отменен*", "отменяются", "больше не действу*", "аннулирован*",
			"утратил* силу", "теряют силу"},
	},
	{
		lang:     "zh",
		unspaced: true, verbLast: true,
		verbs: words{"忽略", "忽视", "忽視", "无视", "無視", "不要理会", "不要理會", "不用理会", "别管", "忘记", "忘記",
			"忘掉", "放弃", "放棄", "抛弃", "不再遵循", "不要遵守", "不要遵循", "停止遵循", "跳过", "跳過", "覆盖", "覆蓋"},
		quals: words{"之前", "以前", "先前", "前面", "上面", "以上", "上述", "所有", "全部", "一切", "原来", "原來",
			"原有", "原始", "你的", "系统", "系統", "此前"},
		nouns: words{"指令", "指示", "提示词", "提示詞", "规则", "規則", "说明", "說明", "设定", "設定", "限制", "约束"},
		voids: words{"作废", "作廢", "无效", "無效", "失效", "不再适用", "不再適用", "已被取消", "已取消", "全部取消"},
	},
	{
		lang: "es",
		verbs: words{"ignora", "ignore", "ignoren", "ignorar", "ignorad", "olvida", "olvide", "olviden", "olvidar",
			"olvidad", "descarta", "descarte", "descartar", "omite", "omita", "omitir", "pasa por alto",
			"pase por alto", "no hagas caso", "no haga caso", "haz caso omiso", "haga caso omiso", "deja de seguir",
			"deje de seguir", "desobedece", "desestima", "desatiende", "salta"},
		quals: words{"todas", "todos", "toda", "anteriores", "anterior", "previas", "previos", "precedentes",
			"de arriba", "arriba", "tus", "sus", "tu", "originales", "iniciales", "del sistema", "antes", "recibidas",
			"dadas"},
		nouns: words{"instrucciones", "instrucción", "indicaciones", "órdenes", "reglas", "directrices", "directivas",
			"pautas", "prompt", "normas", "restricciones", "consignas"},
		voids: words{"quedan anuladas", "ya no son válidas", "ya no aplican", "ya no se aplican", "son nulas",
			"quedan sin efecto", "están anuladas", "quedan invalidadas", "dejan de tener efecto"},
	},
	{
		lang:     "de",
		verbLast: true,
		verbs: words{"ignoriere", "ignorier", "ignoriert", "ignorieren", "vergiss", "vergesst", "vergessen",
			"missachte", "missachtet", "missachten", "übergehe", "übergeht", "verwirf", "verwerft", "verwerfen",
			"befolge nicht", "befolgt nicht", "hör auf", "höre auf", "setze außer kraft", "übergehen"},
		quals: words{"alle", "allen", "sämtliche", "vorherigen", "vorherige", "bisherigen", "bisherige", "obigen",
			"obige", "früheren", "frühere", "vorangegangenen", "deine", "deiner", "ihre", "ursprünglichen",
			"ursprüngliche", "gegebenen", "system"},
		nouns: words{"anweisungen", "anweisung", "instruktionen", "befehle", "regeln", "vorgaben", "richtlinien",
			"anordnungen", "systemprompt", "prompt", "einschränkungen"},
		voids: words{"sind ungültig", "sind nichtig", "gelten nicht mehr", "sind aufgehoben", "sind hinfällig",
			"sind außer kraft", "sind widerrufen", "sind nicht mehr gültig"},
	},
	{
		lang: "fr",
		verbs: words{"ignore", "ignorez", "ignorer", "oublie", "oubliez", "oublier", "ne tiens pas compte",
			"ne tenez pas compte", "fais abstraction", "faites abstraction", "néglige", "négligez", "écarte",
			"écartez", "laisse tomber", "laissez tomber", "cesse de suivre", "cessez de suivre", "passe outre",
			"passez outre", "ne suis plus", "ne suivez plus"},
		quals: words{"toutes", "tous", "précédentes", "précédents", "antérieures", "ci-dessus", "plus haut", "tes",
			"vos", "ton", "votre", "initiales", "originales", "système", "données", "reçues"},
		nouns: words{"instructions", "instruction", "consignes", "consigne", "directives", "règles", "indications",
			"ordres", "prompt", "restrictions"},
		voids: words{"sont annulées", "ne s'appliquent plus", "ne sont plus valables", "sont caduques",
			"sont nulles", "n'ont plus cours", "ne sont plus valides"},
	},
	{
		lang: "pt",
		verbs: words{"ignore", "ignora", "ignorem", "ignorar", "esqueça", "esqueca", "esquece", "esquecer",
			"desconsidere", "desconsidera", "desconsiderar", "descarte", "descarta", "deixe de seguir",
			"pare de seguir", "não siga", "nao siga", "não obedeça", "não obedeca"},
		quals: words{"todas", "todos", "anteriores", "anterior", "prévias", "previas", "acima", "suas", "seus",
			"sua", "teu", "tuas", "originais", "iniciais", "do sistema", "recebidas", "dadas"},
		nouns: words{"instruções", "instrucoes", "instrução", "orientações", "orientacoes", "regras", "diretrizes",
			"diretivas", "ordens", "prompt", "restrições", "restricoes"},
		voids: words{"não são mais válidas", "nao sao mais validas", "estão anuladas", "foram canceladas",
			"perderam a validade", "ficam sem efeito", "são nulas", "deixam de valer"},
	},
	{
		lang:     "ja",
		unspaced: true, verbLast: true,
		verbs: words{"無視", "むし", "忘れ", "従わな", "従うのをやめ", "破棄", "捨て", "気にしな", "無効に"},
		quals: words{"以前", "前の", "これまで", "上記", "上の", "すべて", "全て", "全部", "元の", "最初の", "あなたの",
			"システム", "先ほど", "今まで"},
		nouns: words{"指示", "命令", "指令", "ルール", "規則", "プロンプト", "制約", "設定された"},
		voids: words{"無効", "取り消", "撤回", "適用されません", "失効"},
	},
	{
		lang:     "ko",
		unspaced: true, verbLast: true,
		verbs: words{"무시", "잊어", "잊고", "잊으", "따르지 마", "따르지 말", "버려", "버리", "신경 쓰지 마"},
		quals: words{"이전", "앞의", "앞서", "위의", "위에", "모든", "기존", "원래", "당신의", "너의", "시스템", "지금까지",
			"처음"},
		nouns: words{"지시", "지침", "명령", "규칙", "프롬프트", "안내", "제약"},
		voids: words{"무효", "취소", "더 이상 적용되지", "효력을 잃"},
	},
	{
		lang: "ar",
		verbs: words{"تجاهل*", "انس", "انسى", "إنس", "انسوا", "لا تلتزم", "لا تتبع", "لا تتقيد", "لا تهتم", "تخط*",
			"أهمل*", "اهمل*", "تغاض*", "اترك", "تخل عن"},
		quals: words{"جميع", "كل", "السابقة", "السابق", "سابقة", "أعلاه", "الأصلية", "الأولية", "النظام", "الموجودة",
			"المعطاة", "التي تلقيتها"},
		nouns: words{"التعليمات", "تعليمات", "الإرشادات", "إرشادات", "الأوامر", "أوامر", "القواعد", "قواعد",
			"التوجيهات", "توجيهات", "الموجه", "القيود"},
		voids: words{"ملغاة", "لاغية", "باطلة", "لم تعد سارية", "لم تعد صالحة", "ألغيت"},
	},
	{
		lang:     "hi",
		verbLast: true,
		verbs: words{"अनदेखा", "नज़रअंदाज़", "नजरअंदाज", "भूल जाओ", "भूल जाएं", "भूल जाइए", "भूल जा", "मत मानो",
			"पालन मत करो", "पालन न करें", "पालन मत करें", "उपेक्षा", "छोड़ दो", "छोड़ दें", "ध्यान मत दो", "ध्यान न दें"},
		quals: words{"पिछले", "पिछली", "पहले", "सभी", "सारे", "सारी", "ऊपर", "तुम्हारे", "आपके", "मूल", "सिस्टम",
			"दिए गए", "अब तक"},
		nouns: words{"निर्देश*", "नियम*", "आदेश*", "हिदायत*", "प्रॉम्प्ट", "प्रांप्ट", "निर्देशों"},
		voids: words{"अमान्य", "रद्द", "लागू नहीं", "निरस्त"},
	},
	{
		lang: "it",
		verbs: words{"ignora", "ignori", "ignorate", "ignorare", "dimentica", "dimentichi", "dimenticate",
			"dimenticare", "trascura", "trascurate", "tralascia", "tralasciate", "non seguire", "smetti di seguire",
			"smettete di seguire", "non tenere conto", "non considerare", "scarta", "scartate"},
		quals: words{"tutte", "tutti", "precedenti", "precedente", "sopra", "di sopra", "tue", "tuoi", "vostre",
			"sue", "originali", "iniziali", "del sistema", "ricevute", "date"},
		nouns: words{"istruzioni", "indicazioni", "regole", "direttive", "ordini", "prompt", "restrizioni",
			"consegne"},
		voids: words{"non sono più valide", "sono annullate", "non valgono più", "sono nulle",
			"non si applicano più", "decadono"},
	},
	{
		lang:     "tr",
		verbLast: true,
		verbs: words{"yoksay", "yok say", "görmezden gel*", "unut", "unutun", "unutmanı", "dikkate alma",
			"dikkate almayın", "uyma", "uymayın", "uymayı bırak", "geçersiz kıl", "boşver", "boş ver", "aldırma"},
		quals: words{"önceki", "tüm", "bütün", "yukarıdaki", "yukarıda", "daha önceki", "sana verilen", "size verilen",
			"orijinal", "sistem", "mevcut", "ilk"},
		nouns: words{"talimat*", "yönerge*", "kural*", "komut*", "istem*", "direktif*", "emir*", "kısıtlama*"},
		voids: words{"geçersiz*", "iptal edil*", "artık geçerli değil", "hükümsüz*"},
	},
}

// foreignOverridePatterns are every foreign lexicon's patterns.
func foreignOverridePatterns() []flagPattern {
	var out []flagPattern
	for _, l := range foreignOverrides {
		out = append(out, l.patterns(RuleFlagIgnoreInstructions)...)
	}
	return out
}
