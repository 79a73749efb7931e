lang pt

[override]
verbs = ignore | ignora | ignorem | ignorar | esqueça | esqueca | esquece | esquecer | desconsidere | desconsidera | desconsiderar | descarte | descarta | deixe de seguir | pare de seguir | não siga | nao siga | não obedeça | não obedeca
quals = todas | todos | anteriores | anterior | prévias | previas | acima | suas | seus | sua | teu | tuas | originais | iniciais | do sistema | recebidas | dadas
nouns = instruções | instrucoes | instrução | orientações | orientacoes | regras | diretrizes | diretivas | ordens | prompt | restrições | restricoes
voids = não são mais válidas | nao sao mais validas | estão anuladas | foram canceladas | perderam a validade | ficam sem efeito | são nulas | deixam de valer

[role]
nows = agora você é | a partir de agora você é | de agora em diante você é | agora tu és | você agora é | a partir de agora voce e | agora voce e
roles = sem restrições | sem restricoes | sem regras | sem filtros | sem limites | sem censura | dan | modo desenvolvedor
pretends = finja que você é | finja que voce e | finja ser | faça de conta que você é

[reveal]
verbs = mostre | mostra | me mostre | revele | revela | repita | imprima | diga | escreva | exiba
objects = seu prompt de sistema | o prompt de sistema | o seu prompt de sistema | suas instruções iniciais | suas instruções originais | suas instruções ocultas | sua mensagem de sistema | o prompt do sistema | seu prompt do sistema
