lang fr

[override]
verbs = ignore | ignorez | ignorer | oublie | oubliez | oublier | ne tiens pas compte | ne tenez pas compte | fais abstraction | faites abstraction | néglige | négligez | écarte | écartez | laisse tomber | laissez tomber | cesse de suivre | cessez de suivre | passe outre | passez outre | ne suis plus | ne suivez plus
quals = toutes | tous | précédentes | précédents | antérieures | ci-dessus | plus haut | tes | vos | ton | votre | initiales | originales | système | données | reçues
nouns = instructions | instruction | consignes | consigne | directives | règles | indications | ordres | prompt | restrictions
voids = sont annulées | ne s'appliquent plus | ne sont plus valables | sont caduques | sont nulles | n'ont plus cours | ne sont plus valides

[role]
nows = tu es maintenant | désormais tu es | désormais, tu es | à partir de maintenant tu es | à partir de maintenant, tu es | vous êtes maintenant | dorénavant tu es | dorénavant, tu es
roles = sans aucune restriction | sans restriction* | sans filtre* | sans règle* | sans limite* | sans censure | libéré* | dan | en mode développeur
pretends = fais comme si tu étais | fais semblant d'être | prétends être | faites comme si vous étiez

[reveal]
verbs = affiche | affichez | montre | montre-moi | montrez | révèle | répète | donne-moi | écris | imprime | dis-moi | recopie
objects = ton prompt système | le prompt système | ton message système | tes instructions initiales | tes instructions d'origine | tes instructions cachées | tes consignes initiales | ton invite système | le message système | vos instructions initiales | votre prompt système
