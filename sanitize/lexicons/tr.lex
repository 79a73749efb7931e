lang tr

[override verb-last]
verbs = yoksay | yok say | görmezden gel* | unut | unutun | unutmanı | dikkate alma | dikkate almayın | uyma | uymayın | uymayı bırak | geçersiz kıl | boşver | boş ver | aldırma
quals = önceki | tüm | bütün | yukarıdaki | yukarıda | daha önceki | sana verilen | size verilen | orijinal | sistem | mevcut | ilk
nouns = talimat* | yönerge* | kural* | komut* | istem* | direktif* | emir* | kısıtlama*
voids = geçersiz* | iptal edil* | artık geçerli değil | hükümsüz*

[role]
nows = artık sen | bundan sonra sen | şu andan itibaren sen | artık siz | sen artık
roles = kısıtlaması olmayan | kısıtlamasız | sınırsız | kuralsız | kuralları olmayan | filtresiz | sansürsüz | dan
pretends = olduğunu farz et | olduğunu varsay ve

[reveal object-first]
verbs = göster | yazdır | söyle | tekrarla | yaz | listele
objects = sistem istem* | sistem mesaj* | sistem talimat* | ilk talimat* | orijinal talimat* | gizli talimat*
