lang de

[override verb-last]
verbs = ignoriere | ignorier | ignoriert | ignorieren | vergiss | vergesst | vergessen | missachte | missachtet | missachten | übergehe | übergeht | verwirf | verwerft | verwerfen | befolge nicht | befolgt nicht | hör auf | höre auf | setze außer kraft | übergehen
quals = alle | allen | sämtliche | vorherigen | vorherige | bisherigen | bisherige | obigen | obige | früheren | frühere | vorangegangenen | deine | deiner | ihre | ursprünglichen | ursprüngliche | gegebenen | system
nouns = anweisungen | anweisung | instruktionen | befehle | regeln | vorgaben | richtlinien | anordnungen | systemprompt | prompt | einschränkungen
voids = sind ungültig | sind nichtig | gelten nicht mehr | sind aufgehoben | sind hinfällig | sind außer kraft | sind widerrufen | sind nicht mehr gültig

[role]
nows = du bist jetzt | du bist ab jetzt | ab jetzt bist du | ab sofort bist du | von nun an bist du | jetzt bist du | sie sind jetzt | ab sofort sind sie
roles = ohne einschränkungen | ohne regeln | ohne filter | ohne zensur | ohne grenzen | uneingeschränkt* | unzensiert* | dan | im entwicklermodus | jailbreak*
pretends = tu so, als wärst du | tu so als wärst du | gib vor, du wärst | tun sie so, als wären sie

[reveal]
verbs = zeig | zeige | zeigen sie | gib | gib aus | nenne | wiederhole | verrate | schreib | schreibe | drucke | liste
objects = systemprompt | system-prompt | systemnachricht | deine anweisungen | deine ursprünglichen anweisungen | deine anfänglichen anweisungen | deine versteckten anweisungen | deinen prompt | deinen systemprompt | ihren systemprompt | ihre anweisungen
