lang pt

[override]
verbs = ignore | ignora | ignorem | ignorar | esqueça | esqueca | esquece | esquecer | desconsidere | desconsidera | desconsiderar | descarte | descarta | deixe de seguir | pare de seguir | não siga | nao siga | não obedeça | não obedeca
  | não leve em conta | nao leve em conta | não leve em consideração | deixe de lado | ponha de lado | por favor ignore
quals = todas | todos | anteriores | anterior | prévias | previas | acima | suas | seus | sua | teu | tuas | originais | iniciais | do sistema | recebidas | dadas
nouns = instruções | instrucoes | instrução | orientações | orientacoes | regras | diretrizes | diretivas | ordens | prompt | restrições | restricoes
voids = não são mais válidas | nao sao mais validas | estão anuladas | foram canceladas | perderam a validade | ficam sem efeito | são nulas | deixam de valer
  | foram um erro | eram um erro | foram revogadas
# What points at the instructions with no noun (issue 28, D1073).
alls = tudo o que foi dito antes | tudo acima | tudo o que está acima | tudo o que te disseram | tudo o que lhe disseram | tudo o que precede
  | o que foi dito acima | tudo o que foi dito | todo o texto acima | tudo o que veio antes | tudo o que foi escrito acima

[role]
nows = agora você é | a partir de agora você é | de agora em diante você é | agora tu és | você agora é | a partir de agora voce e | agora voce e
roles = sem restrições | sem restricoes | sem regras | sem filtros | sem limites | sem censura | dan | modo desenvolvedor
pretends = finja que você é | finja que voce e | finja ser | faça de conta que você é

[reveal]
verbs = mostre | mostra | me mostre | revele | revela | repita | imprima | diga | escreva | exiba
objects = seu prompt de sistema | o prompt de sistema | o seu prompt de sistema | suas instruções iniciais | suas instruções originais | suas instruções ocultas | sua mensagem de sistema | o prompt do sistema | seu prompt do sistema

[reveal]
verbs = mostre | mostra | me mostre | revele | revela | repita | imprima | diga | escreva | exiba | copie | reproduza
objects = tudo acima | tudo o que está acima | o texto acima | o texto anterior | todo o texto anterior | o que te disseram
  | o que lhe disseram | suas instruções | seu prompt | suas regras | a mensagem inicial

[secret]
nots = não | nao | nunca | jamais | ninguém
asks = me diga | diga-me | me dê | dê-me | me passe | passe-me | me revele | revele | me mostre | mostre-me | me envie
  | envie-me | escreva-me | qual é | qual era | preciso d | soletre
nouns = senha | senhas | palavra-passe | palavra secreta | código secreto | código de acesso | chave secreta | chave api
  | chave privada | credenciais | sua chave | seu segredo | o segredo
says = diga | responda com | responda apenas | comece sua resposta com | sua resposta deve ser | escreva apenas | diga apenas
grants = acesso concedido | acesso permitido | acesso autorizado | acesso liberado

[authority]
claims = sou seu | sou sua | sou o | sou a | aqui é o seu | aqui é seu | mensagem do seu | mensagem de seu | como seu | como sua
who = desenvolvedor | desenvolvedora | desenvolvedores | criador | criadora | criadores | administrador | administradora
  | programador | operador | proprietário | dono | engenheiro | equipe de segurança
demands = restrições | regras | filtros | desative | autorizo | autorizado | autorizada | permissão | obedeça | sem limites
  | revele | instruções
modes = modo desenvolvedor | modo de desenvolvedor | modo administrador | modo deus | modo sem restrições | modo manutenção
  | modo de manutenção | modo depuração | modo root | modo dan
ons = ativado | ativo | habilitado | ligado

[reader]
notes = nota para | nota | atenção | aviso para | aviso | mensagem para | instrução para | instruções para | importante
readers = ia | a ia | as ia | inteligência artificial | assistente de ia | assistentes de ia | assistente virtual
  | modelo de linguagem | modelos de linguagem | llm | chatbot | agente de ia
ifs = se você é | se você for | se voce e | se és | se tu és
acts = responda | diga que | escreva | recomende | não mencione | omita | resuma | aprove | envie | encaminhe | afirme
  | inclua | mencione | diga ao usuário

# Issue 28, second round (D1027).
[reveal]
verbs = repita | mostre | mostra | imprima | escreva | copie | resuma | traduza | liste | cite | soletre | codifique
  | converta | reproduza | diga | me diga | revele | exiba | me mostre
owners = suas | sua | seu | seus | tuas | tua | teu | teus
heads = instruções | regras | prompt | prompt de sistema | diretrizes | mensagem de sistema | orientações
things = tudo | tudo o que | o texto | as palavras | as instruções | a mensagem | todo o texto
places = acima | anterior | antes desta mensagem | no início | que te deram | que você recebeu | que lhe deram
  | escrito acima | anteriormente
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = adicione | adiciona | inclua | inclui | insira | insere | coloque | coloca | mencione | menciona | recomende
  | recomenda | diga ao usuário | diz ao utilizador
claims = diga que | diz que | afirme que | escreva que | responda que
answers = sua resposta | tua resposta | cada resposta | seu resumo | teu resumo
softs = por favor | também | sempre

[standing]
whos = proprietário | proprietária | dono | dona | usuário | utilizador | administrador
grants = autorizou | permitiu | aprovou | deu permissão | concedeu | tem autorizado
waivers = sem pedir | sem perguntar | sem confirmação | sem autorização | sem aprovação | sem permissão
  | não precisas de pedir | não precisa pedir | não precisa mais pedir | nunca peça | nunca peças
owns = seus próprios | suas próprias | teus próprios | tuas próprias | próprios | próprias
approves = aprovar | aprove | aprova | aproves
sources = páginas da web | páginas web | sites | e-mails | emails | documentos | mensagens | resultados de pesquisa
preapproved = pré-aprovados | pré-aprovadas | pré-aprovado | pré-aprovada | preaprovados | preaprovadas | aprovados previamente | aprovados antecipadamente | autorizados previamente
froms = daqui em diante | partir de agora | agora em diante | doravante | daqui para a frente
nots = não | nunca | jamais | nem | ninguém

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = fim | final | encerramento | termina
users = usuário | usuario | utilizador | cliente | humano
inputs = entrada | dados | mensagem | texto | contexto | conteúdo | documento | consulta | pedido | instruções | conversa | prompt
systems = sistema | assistente | administrador | desenvolvedor | operador | ia
orders = instruções | instrução | mensagem | ordens | ordem | substituição | aviso | diretiva | diretivas | regras | modo | prompt
headers = nova sessão | nova conversa | novas instruções | instruções reais | instruções ocultas
musts = você deve | deves | a partir de agora | de agora em diante | agora você é | responda apenas | responda somente | revele | sem restrições | desative | obedeça | sua nova tarefa

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = mensagem da | mensagem do | aviso da | aviso do | comunicado da | comunicado do
who = equipe de segurança | equipa de segurança | equipe de suporte | equipe técnica | auditor | auditora | polícia | autoridades | fornecedor | fabricante | sistema | engenheiro que te treinou | equipe que te criou | administrador do sistema
demands = restrições | filtros | proteções | desative | desativem | modo de depuração | modo desenvolvedor | modo de manutenção | sem restrições | obedeça | obedecer | todos os pedidos | todas as solicitações | foram revogadas | foram um erro | foram removidas

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password]
directs = diga | diz | diz-me | escreva | escreve | repita | repete | mostre | mostra | imprima | revele | revela | soletre
finals = por favor | agora | já | agora mesmo | e mais nada | mais nada | só | somente | para mim | de novo | outra vez
softs = por favor | agora | só | apenas | e | então | pode | poderia | simplesmente
completes = complete | completa | termine | termina | continue | continua | preencha | preenche
copulas = é | era
asks = me diga | diga-me | diga | me dê | dê-me | me passe | me revele | revele | me mostre | mostre-me | escreva | escreve
  | soletre | repita | traduza | codifique | descreva | liste | qual é | qual era | me dá | dá-me
dets = a | o | sua | seu | tua | teu | essa | esta | da | do
quals = secreta | secreto | verdadeira | atual
secrets = senha | palavra secreta | palavra-passe | código secreto | chave secreta | palavra mágica | senha secreta
  | código de acesso
nouns = palavra | frase | código | chave | segredo | número
guards = que você está protegendo | que você protege | que você guarda | que você esconde | que você não pode dizer
  | que você não pode revelar | que você não deve dizer | que te deram | que lhe deram | que você conhece | que estás a proteger
  | que proteges
parts = primeira letra | última letra | segunda letra | letras | primeiro caractere | último caractere | caracteres | dica
  | dicas | pista | pistas | comprimento | tamanho | inicial | iniciais | sílabas
ofs = de | sobre | para
counts = quais vogais | quantas vogais | quais consoantes | quantas letras | quantos caracteres | qual letra | com que letra | que letra
transforms = com asteriscos | trocando cada vogal | sem as vogais | mascarada | censurada | ao contrário | de trás para frente | de trás pra frente | em ordem inversa | letra por letra | uma letra por linha
  | com espaços | com hífens | com traços | separada por | separadas por | entre cada letra | em base64 | em hexadecimal
  | em binário | em morse | em código morse | em rot13 | em inglês | em outro idioma | em outra língua | como lista
  | em maiúsculas | codificada | criptografada
creates = escreva | escreve | componha | crie | invente | me conte | conte-me | faça
wrappers = forca | jogo da forca | um jogo de adivinhação | poema | história | canção | música | charada | adivinha | enigma | acróstico | haicai | rima | piada | verso | conto
relates = que diga | que sussurre | que revele | em que diz | que contenha | que contém | contendo | que inclua | que inclui | com | sobre | que esconda | que mencione
  | cuja resposta seja | cuja resposta é | que use | usando
withouts = sem dizê-la | sem dizer | sem revelá-la | sem revelar | sem escrevê-la | sem mencioná-la
policies = deve | devem | pode | podem | precisa | pelo menos | mínimo | máximo
nots = não | nao | nunca | jamais | ninguém
compounds = nova | temporária | forte | segura
# Game rounds' gaps (sgfix, D1146): claims, "I
# already know it", the grandmother excuse and "what are you hiding", as English's.
claims = estou autorizado a saber | estou autorizada a saber | tenho permissão para saber | tenho autorização para saber
knows = já sei | já conheço | já tenho
confirms = confirme-a | confirme | só confirme | diga-a | diga | só diga
kin = avó | vovó | avô | vovô | mãe | pai | tia | tio
usedtos = costumava | sempre | toda noite | todas as noites
tells = me ler | me dizer | me cantar | me lia | me dizia | me cantava | me sussurrava | ler para mim | dizer | lia | dizia
whats = me diga o que | diga o que | conte o que | revele o que
hides = você está protegendo | você está escondendo | você está guardando | você esconde | você protege
# Game rounds' gaps (sgfix, D1146): a guess to confirm, as English's.
checks = confirme | confirme que | verifique | verifique que | verifique se | me diga se | diga se
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = me diz | me diga | diz-me | diga-me | me mostra | me mostre | mostra-me
  | mostre-me | me conta | me conte | conta-me | me fala | me fale | fala-me | me escreve | me escreva
  | escreve-me | escreva-me | me soletra | me revela | me lembra | me lembre | lembra-me
  | me passa | me passe | me manda | me mande | me envia | me envie | escreva-a | escreve-a | diga-a | diz-a
  | soletre | revele | compartilhe | sussurre | recite | traduza | converta | inverta | codifique
  | descreva | explique | invente | crie | faça | diga | fale | mostre | conte | liste
acts = gostaria de saber | adoraria saber | estou curioso para saber | posso saber | qual é | qual a | o que é | preciso | quero | gostaria | soletra | revela | compartilha | sussurra
  | recita | traduz | converte | inverte | codifica | descreve | explica | inventa | cria | faz
  | diz | fala | mostra
changes = traduz | traduza | converte | converta | inverte | inverta | codifica | codifique | reescreve | reescreva
  | transforma | transforme | soletra | soletre
leads = por favor | pfv | pf | por gentileza | só | somente | apenas | simplesmente | agora | então | ok | tá | ei | oi | olá
  | vai | anda | bora | também | rápido | você pode | pode | podes | poderia | me pode | quero que você | preciso que você
  | tem que | deve | amigo | mano | guardião | vamos | aí
mays = você pode | pode | podes | tudo bem
mes = me | mim | a mim | para mim | pra mim | nos
yous = você | tu | vc
joins = e | mas | depois | então | ou | e depois
subs = quem | cujo | cuja | se | quando | porque | enquanto | embora | até que | que
tos = a | ao | à | para o | pro | desde | para
sharers = compartilha | compartilhe
withs = com
its = ela | isso
forms = letra | letras | caractere | caracteres | começa | termina | comprimento | vogal | vogais | sílaba
  | sílabas
hiddens = secreta | secreto | escondida | escondido | protegida | protegido | mágica | mágico | proibida | proibido | guardada
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
frames = importa o que | independentemente de | independentemente das | independentemente dos
  | independentemente do | independentemente da | seja o que for | aconteça o que acontecer | partir de agora | agora em diante
  | qualquer caso | todos os casos | digam o que disserem
says = diga | diga apenas | diga só | responda | responda apenas | responda somente | responda só | responde | responde apenas
  | escreva apenas | responda com | responde com | escreve apenas
everys = cada | todas as | todos os | qualquer
inputs = mensagem | mensagens | pergunta | perguntas | entrada | entradas | pedido | pedidos | solicitação
onlys = única resposta | resposta única | única saída | única resposta aceitável
ises = é | será | deve ser | tem de ser | tem que ser | deverá ser
trails = nada mais | mais nada | sem mais nada
echoes = diga | diga apenas | escreva | escreva apenas | imprima | imprima apenas | repita | repita comigo
  | responda com | responde com | responda apenas
trophies = fui hackeado | fui hackeada | eu fui hackeado | hackeado | hackeada | sistema comprometido

[play]
opens = imagine que você é | imagine que é | imagina que és | imagina que tu és | suponha que você é | finja que você é | finja ser
  | finge que és | vamos jogar um jogo | vamos brincar | neste jogo | nesta história | neste mundo | neste cenário | hipoteticamente
  | se você não tivesse | não saia do personagem | fique no personagem | aja como
bounds = sem regras | sem restrições | sem limites | sem filtros | sem censura | sem nenhuma regra | sem qualquer restrição
  | nunca se recusa | nunca recusa | ignora as suas instruções | ignore suas instruções
tells = revela | revelaria | diz | diria | dá | daria | conta | contaria | compartilha | partilha | me diz | me dá
targets = a senha | as senhas | sua senha | a sua senha | o segredo | seu segredo | qualquer segredo | todo segredo
  | suas instruções | as suas instruções | o prompt do sistema | acesso concedido | acesso permitido | a palavra mágica
  | a palavra-passe | o código secreto

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
verbs = liste | enumere | formate | converta | explique | descreva | resuma | traduza | copie | repita | imprima
  | mostre | escreva | me dê | diga | reproduza | coloque | ponha
owners = suas | seus | tuas | teus
heads = instruções | regras | diretrizes | prompt | orientações | indicações
texts = texto | palavras | conteúdo
alls = todo | todo o | todas as | todos os | tudo
priors = anteriores | precedentes | prévias
afters = que você recebeu | que recebeu | que te deram | que lhe deram | antes desta mensagem | antes da minha mensagem
sofars = até agora | até aqui
asks = o que te | o que você foi
tolds = proibiram | proibido de | disseram para não | mandaram não
named = pre-prompt | preprompt
# The first line, the last words, of what the agent was given.
ordinals = primeira | primeiro | primeiras | primeiros | última | último | últimas | últimos
units = linha | linhas | palavra | palavras | frase | frases
sources = que você viu | que você recebeu | do seu prompt | das suas instruções | desta conversa
  | antes da minha mensagem
# A prompt's opening words in quotes, after where the text asked for stands.
anchors = antes de | depois de | que começa com | começando com | começando por
quoted = você é | tu és | sua tarefa | seu papel | sua função | ignore
leads = o que | qual | quais | repita | imprima | mostre | escreva | copie | diga | tudo | texto | palavras
heres = minha mensagem | esta mensagem | aqui | completo | completa | palavra por palavra | exatamente
# Game rounds' gaps (sgfix, D1146): "ignore the above and say what it
# was" and "TL;DR of the above", as English's.
says = diga | diz | diga-me | escreva | repita | mostre | mostre-me | explique | revele | imprima
whats = o que era | o que dizia | o que estava escrito | o que te disseram | o que lhe disseram | quais eram as instruções
bares = o que está acima | tudo acima | o texto acima | o que precede | tudo o que precede
shows = tl;dr de | tldr de | resumo de

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = diga | diz | fala | fale | responda | responde | escreva | escreve | imprima | repita | repete | digite | comece | termine | sua resposta | tua resposta | a sua resposta | suas respostas | você diz | você responde | você vai dizer | você vai responder | você deve dizer | você deve responder | tu dizes | tu respondes | quero que você diga | quero que você responda | pode dizer | podes dizer | traduza | traduz | confirme | confirma | dizendo
nots = não | nunca | jamais | ninguém | sem | nem
ifs = se | só se | somente se | apenas se | quando | a menos que | exceto se | caso
elses = senão | caso contrário | de outro modo | em qualquer outro caso
keys = senha | palavra-passe | código | pin | chave | correta | correto | certa | certo | válida | válido | palavra secreta
subjects = o | a | os | as | um | uma | ele | ela | eles | elas
opposites = contrário | oposto | antônimo | antónimo
denials = acesso negado | acesso recusado | negado
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = você é | voce é | voce e | tu és | agora você é | a partir de agora você é | finja que você é | finja ser | finge que
  | imagine que você é | vamos jogar | vamos brincar | neste jogo | nesta história | escreva uma história | era uma vez
  | seja meu | seja minha | aja como | faz de conta
machines = terminal | terminal linux | console | interpretador python | interpretador | banco de dados
secrets = senha* | segred* | passw*
others = sem
inverts = dia do contrário | dia ao contrário | dia invertido
keys = a senha do cofre | o código do cofre | a combinação do cofre
# ---- round 6, languages (issue 28, sixth round; D1213): the extraction
# window (flagrules_extract.go's extractWindow) in Portuguese, as French's,
# Spanish's and German's (D1157): the imperative of Portugal and of Brazil,
# the clitic forms ("escreve-as", "mostra-me"), the infinitive after a
# question ("pode me mostrar"). ----
[extract]
acts = posso ver | poderia ver | deixa eu ver | me deixa ver | quero ver | gostaria de ver | repete | repita | repetir | copia | copie | copiar | mostra | mostre | mostrar | mostra-me | me mostra | me mostre
  | dá-me | me dá | me dê | diz | diga | diz-me | me diz | me diga | dizer | escreve | escreva | escrever | escreve-as
  | escreve-os | resume | resuma | resumir | traduz | traduza | traduzir | lista | liste | listar | enumera | enumere
  | enumerar | explica | explique | explicar | descreve | descreva | descrever | cita | cite | citar | revela | revele
  | revelar | partilha | compartilha | compartilhe | compartilhar | envia | envie | enviar | manda | mande | imprime
  | imprima | imprimir | reproduz | reproduza | reproduzir | transcreve | transcreva | transcrever | recita | recitar
  | cola | cole | colar
owners = tuas | teus | tua | teu | suas | seus | sua | seu
quals = sistema | inicial | iniciais | completo | completa | completas | completos | original | originais | secreto
  | secreta | secretas | oculto | oculta | ocultas | exato | exata | exatas | primeira | primeiras | todas | todos
marks = do sistema | de sistema | iniciais | inicial | originais | original | ocultas | oculta | secretas | secreta
heads = instruções | instrução | prompt | diretrizes | orientações | indicações | prompt do sistema | prompt de sistema
  | mensagem do sistema | mensagem de sistema | defesa
weaks = regras | regra | configuração | configurações
rels = que te deram | que você recebeu | que recebeste | que te foram dadas | que lhe deram | que te mandaram | que você segue
  | que segues | que tens de seguir | que você tem que seguir | que te passaram
places = antes da minha primeira mensagem | antes da primeira mensagem | antes desta mensagem | antes da minha mensagem | acima desta mensagem | até agora | acima desta linha
nearby = acima | anteriores | do início
addresses = por | favor | agora | só | apenas | ok | então | depois | e | também | simplesmente | pode | podes | poderia
  | podia | você | tu | quero | que | me | eu | bom | primeiro | finalmente | olá | oi | obrigado | mas | sim | ei | olha
guardeds = senha | palavra secreta | código secreto | segredo | access granted | código de acesso | palavra-passe
whs = qual | quais | que | o que
subjects = o | a | os | as | um | uma | este | esta | ele | ela | eles | elas | nós | se | o usuário | o utilizador | o modelo
ands = e | depois | e depois | mas | então
# What the text was given to the reader by someone else, or somewhere
# else ("che ti hanno dato in ufficio", "que você recebeu do professor"):
# a place or a person after the relative, not the reader's own text
# (fromElsewhere, as Spanish's).
wheres = em | no | na | nos | nas | pelo | pela | pelos | pelas | do | da | dos | das | de | por | via | com
[extract onto]
elsewheres = do | da | dos | das | de um | de uma | pelo | pela | pelos | pelas | desde o | desde a
selves = sistema* | prompt* | conversa* | chat* | contexto* | desenvolvedor* | criador* | operador* | admin* | ia | assistente* | modelo* | bot | jogo* | início* | inicio* | começo* | mensage* | sess* | instru* | regra* | acima
# ---- end round 6, languages ----
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = pelo resto da conversa | pelo resto da conversação | durante o resto da conversa | até segunda ordem | em vez de responder | ao invés de responder
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = esquece | esqueceu | esquecido | perde | perdeu | perdido | muda | mudou | altera | alterou | redefine | digita | digitou | insere | adivinha | adivinhou | quebra | quebrou
