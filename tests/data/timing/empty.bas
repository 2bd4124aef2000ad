100 rem nothing: what typing RUN and READY. cost
